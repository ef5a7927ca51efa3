import { defineConfig } from "drizzle-kit";

// The SDK test app's own table: `npx drizzle-kit generate --config tests/integration/sdk/purchase-approval/drizzle.config.ts`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./tests/integration/sdk/purchase-approval/schema.ts",
  out: "./tests/integration/sdk/purchase-approval/migrations",
});
