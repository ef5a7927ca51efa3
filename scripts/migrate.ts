// `npm run db:migrate`: apply the committed migrations to DATABASE_URL (or the embedded folder).
import { migrateDatabase, openDatabase, targetFromEnvironment } from "../db/client";

const database = await openDatabase(targetFromEnvironment());
try {
  await migrateDatabase(database);
  console.log(`Migrations applied (${database.kind}).`);
} finally {
  await database.close();
}
