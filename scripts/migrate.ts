// `npm run db:migrate`: apply the platform's committed migrations, then each registered app's, to
// DATABASE_URL (or the embedded folder).
import { openDatabase, targetFromEnvironment } from "@/db/client";
import { migrateParley } from "@/lib/database";

const database = await openDatabase(targetFromEnvironment());
try {
  await migrateParley(database);
  console.log(`Migrations applied (${database.kind}).`);
} finally {
  await database.close();
}
