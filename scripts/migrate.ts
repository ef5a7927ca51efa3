// `npm run db:migrate`: apply the platform's committed migrations, then each registered app's, to
// DATABASE_URL (or the embedded folder).
import { openDatabase, targetFromEnvironment } from "@/db/client";
import { DataFolderLockedError } from "@/db/data-folder-lock";
import { migrateParley } from "@/lib/database";

const database = await openDatabase(targetFromEnvironment()).catch((error: unknown) => {
  // A data folder another process holds (say, the running server): said plainly, no stack.
  if (!(error instanceof DataFolderLockedError)) throw error;
  console.error(`Parley could not apply migrations: ${error.message}`);
  process.exit(1);
});
try {
  await migrateParley(database);
  console.log(`Migrations applied (${database.kind}).`);
} finally {
  await database.close();
}
