import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx", "tests/integration/**/*.test.ts", "lib/**/*.test.ts", "examples/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    // A fresh PGlite takes seconds to initialise on these machines.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ["tests/**/*.test-d.ts", "lib/**/*.test-d.ts", "examples/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
