import { getDatabase } from "@/db/client";
import { isDemoMode } from "@/lib/config";
import { formatDemoCredentials, seedDemoUsersOnFirstStart } from "@/lib/example/demo-users";

/**
 * Everything a Parley process does before serving: open the database, apply migrations, and in
 * demo mode create the demo people on first start and print how to sign in.
 */
export async function prepareServer(log: (line: string) => void = console.log): Promise<void> {
  const database = await getDatabase();
  if (!isDemoMode()) {
    log("Parley: using PostgreSQL from DATABASE_URL; migrations applied.");
    return;
  }
  const created = await seedDemoUsersOnFirstStart(database.db);
  if (created.length > 0) log(`Parley: created ${created.length} demo people in the embedded database.`);
  log(formatDemoCredentials());
}
