import { defineConfig } from "vitest/config";
import { resolveAliases } from "./vitest.aliases";

/**
 * `npm run test:faults`: the fault suite (tests/faults) — production servers killed, databases
 * restarted, models failing, hostile requests — on PostgreSQL from PARLEY_TEST_POSTGRES_URL. One file
 * at a time: each starts its own servers on a shared 2-core machine.
 */
export default defineConfig({
  resolve: { alias: resolveAliases },
  test: {
    include: ["tests/faults/**/*.test.ts", "tests/adapters/**/*.test.ts"],
    globalSetup: ["tests/faults/support/global-setup.ts"],
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
