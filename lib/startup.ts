import { getDatabase } from "@/db/client";
import { getAppRuntime } from "@/lib/app-runtime";
import { isDemoMode } from "@/lib/config";
import { startDemoReviewsOnFirstStart } from "@/lib/example/demo-reviews";
import { formatDemoCredentials, seedDemoUsersOnFirstStart } from "@/lib/example/demo-users";

/**
 * Everything a Parley process does before serving: open the database, apply migrations, resolve the
 * model and start the worker; in demo mode, on first start, create the demo people and start reviews
 * of the demo claims, and print how to sign in.
 */
export async function prepareServer(log: (line: string) => void = console.log): Promise<void> {
  const database = await getDatabase();
  const { runtime, model } = await getAppRuntime();
  log(`Parley: agents run on ${model.label}.`);
  if (!isDemoMode()) {
    log("Parley: using PostgreSQL from DATABASE_URL; migrations applied.");
    return;
  }
  const created = await seedDemoUsersOnFirstStart(database.db);
  if (created.length > 0) {
    log(`Parley: created ${created.length} demo people in the embedded database.`);
    const reviews = await startDemoReviewsOnFirstStart(database.db, runtime);
    if (reviews > 0) log(`Parley: started ${reviews} demo reviews; their questions will be in the inboxes shortly.`);
  }
  log(formatDemoCredentials());
}

/** {@link prepareServer}, or — when the configuration is wrong — the reason on the console and exit code 1. */
export async function prepareServerOrExit(): Promise<void> {
  try {
    await prepareServer();
  } catch (error) {
    console.error(`Parley could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
