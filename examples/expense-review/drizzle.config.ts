import { defineConfig } from "drizzle-kit";

// The expense review's own tables and migrations: `npx drizzle-kit generate --config examples/expense-review/drizzle.config.ts`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./examples/expense-review/schema.ts",
  out: "./examples/expense-review/migrations",
});
