import { defineConfig } from "vitest/config";
import { resolveAliases } from "./vitest.aliases";

const TESTS = ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx", "tests/integration/**/*.test.ts", "lib/**/*.test.ts", "examples/**/*.test.ts"];

/**
 * Test files that change what a process holds for every file after them — environment variables, a
 * module mocked or spied on, an agent attached to a shared workflow, global timers — or that read
 * what the whole process counted (the metrics): each runs in a process of its own. A new test that
 * does any of these belongs here (the others share processes, and would see it).
 */
const ISOLATED = [
  "tests/integration/a-database-that-cannot-be-reached-is-answered-503-with-retry-after.test.ts",
  "tests/integration/asks/a-callback-url-with-a-user-name-or-password-is-refused-and-its-password-never-logged.test.ts",
  "tests/integration/asks/the-app-sends-an-asks-end-to-its-callback-and-the-global-receiver.test.ts",
  "tests/integration/demo-api-key-exists-only-on-embedded-database.test.ts",
  "tests/integration/demo-people-exist-only-on-embedded-database.test.ts",
  "tests/integration/mcp/the-mcp-endpoint-turns-other-sites-away-and-asks-for-an-api-key.test.ts",
  "tests/integration/metrics/**/*.test.ts",
  "tests/integration/models/**/*.test.ts",
  "tests/integration/notifications/a-failed-delivery-is-logged-and-listed-for-admins.test.ts",
  "tests/integration/runtime/an-agents-own-tools-run-between-its-steps.test.ts",
  "tests/integration/runtime/ask-tool-is-offered-only-in-a-loop.test.ts",
  "tests/integration/runtime/asking-without-persistent-memory-is-refused.test.ts",
  "tests/integration/sessions/**/*.test.ts",
  "tests/integration/sla/waits-an-agents-question-opened-count-as-that-agents.test.ts",
  "tests/integration/workflow-changes/a-server-start-keeps-its-definitions-and-warns-of-the-runs-a-change-breaks.test.ts",
  // Patches node:http's Server and closes every connection of the process, as a stopping server does.
  "tests/unit/a-stopping-server-closes-its-connections-without-cutting-an-answer.test.ts",
  "tests/unit/an-app-error-from-another-bundle-copy-is-still-told-to-the-user.test.ts",
  "tests/unit/log/a-json-log-takes-what-libraries-print-with-console.test.ts",
  "tests/unit/log/every-line-an-api-request-or-server-action-writes-carries-its-request-id.test.ts",
  "tests/unit/asks/a-callback-to-this-machines-own-address-is-refused.test.ts",
  "tests/unit/models/**/*.test.ts",
  "tests/unit/runtime/a-workflow-declared-in-one-bundle-is-described-alike-in-another.test.ts",
  "tests/unit/runtime/workflow-mistakes-stop-the-runtime-at-start.test.ts",
  "tests/unit/session-secret.test.ts",
  "tests/unit/single-sign-on-admits-only-an-email-the-provider-verified.test.ts",
  "tests/unit/sla-clock-shows-time-left.test.ts",
  "tests/unit/the-server-refuses-to-start-without-its-dependency-patches.test.ts",
];

export default defineConfig({
  resolve: { alias: resolveAliases },
  test: {
    pool: "forks",
    maxWorkers: 2,
    // The server's log (lib/log.ts) at warn: a test's requests would otherwise print a line each. Tests that read the log capture it (tests/support/captured-log.ts).
    env: { PARLEY_LOG_LEVEL: process.env.PARLEY_LOG_LEVEL ?? "warn" },
    // A fresh PGlite takes seconds to initialise on these machines.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "isolated",
          include: ISOLATED,
          typecheck: { enabled: true, include: ["tests/**/*.test-d.ts", "lib/**/*.test-d.ts", "examples/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
        },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: TESTS,
          exclude: ISOLATED,
          // Files share a process one after another: its imports, and the migrated PGlite databases tests
          // give back (lib/sdk/test-databases.ts), are made once per process instead of once per file —
          // about four times quicker. Each test still gets an empty database of its own.
          isolate: false,
        },
      },
    ],
  },
});
