// `npm run seed:demo`: create the demo people on the database in DATABASE_URL — only when asked.
// Their passwords are public: never run this against a database real people use.
import { openDatabase, targetFromEnvironment } from "@/db/client";
import { DataFolderLockedError } from "@/db/data-folder-lock";
import { migrateParley } from "@/lib/database";
import { formatDemoCredentials, seedDemoUsers } from "@/lib/demo-people";

const database = await openDatabase(targetFromEnvironment()).catch((error: unknown) => {
  // A data folder another process holds (say, the running server): said plainly, no stack.
  if (!(error instanceof DataFolderLockedError)) throw error;
  console.error(`Parley could not create the demo people: ${error.message}`);
  process.exit(1);
});
try {
  await migrateParley(database);
  const created = await seedDemoUsers(database.db);
  console.log(`Created ${created.length} demo people (${database.kind}); the others already existed.`);
  console.log(formatDemoCredentials());
} finally {
  await database.close();
}
