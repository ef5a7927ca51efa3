import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryRows } from "@/db/client";
import { stopAppRuntime } from "@/lib/app-runtime";
import { closeDatabase, getDatabase } from "@/lib/database";
import { getRegistry } from "@/lib/registry/configured";
import { fingerprintOf, workflowDefinition, type WorkflowDescription } from "@/lib/runtime";
import { prepareServer } from "@/lib/startup";
import { createPostgresDatabase, TEST_POSTGRES_URL } from "@/tests/support/databases";

afterEach(async () => {
  await stopAppRuntime();
  await closeDatabase();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The server's own start (instrumentation.ts calls it) on a database of its own: what it keeps and what it warns of. */
describe.runIf(TEST_POSTGRES_URL)("a server's start on a DATABASE_URL database", () => {
  it("keeps the definition of every registered workflow, and warns of a run parked on an earlier one that it breaks", async () => {
    const { url, drop } = await createPostgresDatabase();
    try {
      vi.stubEnv("DATABASE_URL", url);
      vi.stubEnv("AUTH_SECRET", randomBytes(33).toString("base64"));
      const warnings: string[] = [];
      vi.spyOn(console, "warn").mockImplementation((line: unknown) => void warnings.push(String(line)));
      await prepareServer(() => {});
      const { db } = await getDatabase();
      const registry = getRegistry();
      const kept = await queryRows<{ workflow: string; fingerprint: string }>(db, sql`select workflow, fingerprint from workflow_definitions order by workflow`);
      expect(kept).toEqual(
        registry.workflows.map((workflow) => ({ workflow: workflow.name, fingerprint: workflowDefinition(workflow).fingerprint })).sort((a, b) => a.workflow.localeCompare(b.workflow)),
      );
      expect(warnings).toEqual([]);

      // A run of the API's own workflow parked by an earlier definition whose state the one running now no longer has.
      const [apiAsk] = registry.workflows.filter((workflow) => workflow.name === "ApiAsk");
      const earlier = structuredClone(workflowDefinition(apiAsk!).description) as WorkflowDescription;
      earlier.states.Confirming = { handles: ["Answered"] };
      const fingerprint = fingerprintOf(earlier);
      await db.execute(sql`insert into workflow_definitions (workflow, fingerprint, description, first_seen_at)
        values ('ApiAsk', ${fingerprint}, ${JSON.stringify(earlier)}::jsonb, now() - interval '1 day')`);
      await db.execute(sql`insert into workflow_instances (workflow, task_id, state, status, definition_fingerprint)
        values ('ApiAsk', gen_random_uuid(), 'Confirming', 'waiting', ${fingerprint})`);
      await stopAppRuntime();
      await closeDatabase();

      await prepareServer(() => {});
      expect(warnings).toEqual([expect.stringMatching(/^Parley: warning: the workflow ApiAsk changed in a way that breaks 1 run parked on an earlier definition of it:\n {2}- the state Confirming was removed \(1 run, in Confirming\)\n/)]);
    } finally {
      await stopAppRuntime();
      await closeDatabase();
      await drop();
    }
  });
});
