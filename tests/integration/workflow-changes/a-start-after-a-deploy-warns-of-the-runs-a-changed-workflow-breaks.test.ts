import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Db, queryRows } from "@/db/client";
import { countRunsOnOtherDefinitions, runsOnOtherDefinitionsSql } from "@/db/queries/workflow-definitions";
import { tasks, workflowDefinitions, workflowInstances } from "@/db/schema";
import { answerOf, type RegisteredWorkflow } from "@/lib/runtime";
import { checkWorkflowChangesAtStart, keepDefinitions } from "@/lib/workflow-changes";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, PayBack, Payback, type RuntimeFixture } from "../runtime/fixture-workflow";
import { payBackChanged } from "./changed-workflows";

/** PayBack's questionnaire with a new required field: every question already asked lacks it. */
const withIban = () => payBackChanged({ events: { PaidBack: answerOf(Payback.extend({ iban: z.string().describe("Your IBAN") })) } });

describe.each(DATABASE_KINDS)("a server starting after a deploy that changed a workflow (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  /** A deployment that started on PayBack as it is (keeping its definitions) and parked `count` runs on its questionnaire. */
  async function parkedOnTheOldDefinition(count: number, options: { kept?: boolean } = {}): Promise<RuntimeFixture> {
    fixture = await createRuntimeFixture(kind);
    if (options.kept ?? true) await keepDefinitions(fixture.database.db, [FileTask, PayBack]);
    for (let run = 0; run < count; run++) await fixture.startQuestionnaireTask();
    return fixture;
  }

  async function startWith(workflows: readonly RegisteredWorkflow[], db: Db = fixture!.database.db) {
    const lines: string[] = [];
    const reports = await checkWorkflowChangesAtStart(db, workflows, (line) => lines.push(line));
    return { lines, reports };
  }

  it("names the workflow, the change, how many runs are parked on it and what to do", async () => {
    await parkedOnTheOldDefinition(2);
    const { lines } = await startWith([FileTask, withIban()]);
    expect(lines).toEqual([
      [
        "Parley: warning: the workflow PayBack changed in a way that breaks 2 runs parked on an earlier definition of it:",
        '  - the answer to PaidBack: the field "iban" is new and required: questions already asked do not ask for it (2 runs, in Asking)',
        "  What it means: the question the run waits on, already asked, is judged by the new schema: answers that were valid when it was asked may be refused, and when its attempts run out the run gets nothing.",
        "  What to do: keep the earlier definition registered under the name PayBack until those runs end, and give the new one a name of its own; " +
          "or put the change back; or cancel those runs from their run pages. See docs/workflow-changes.md.",
      ].join("\n"),
    ]);
  });

  it("says a state runs are parked in was removed", async () => {
    await parkedOnTheOldDefinition(1);
    const { reports } = await startWith([FileTask, payBackChanged({ states: { Asking: undefined } })]);
    expect(reports).toEqual([
      { workflow: "PayBack", runs: 1, unknown: 0, changes: [{ change: "the state Asking was removed", effect: expect.any(String), states: ["Asking"], runs: 1 }] },
    ]);
  });

  it("warns of nothing when the change lets parked runs carry on", async () => {
    await parkedOnTheOldDefinition(2);
    const compatible = payBackChanged({ events: { PaidBack: answerOf(Payback.extend({ iban: z.string().optional() })) } });
    expect(await startWith([FileTask, compatible])).toEqual({ lines: [], reports: [] });
  });

  it("warns of nothing when nothing changed", async () => {
    await parkedOnTheOldDefinition(1);
    expect(await startWith([FileTask, PayBack])).toEqual({ lines: [], reports: [] });
  });

  it("counts only the runs that have not ended", async () => {
    const { runtime, filer } = await parkedOnTheOldDefinition(2);
    const [question] = await runtime.questionsFor(filer.id);
    await runtime.submitAnswer({ questionId: question!.id, by: filer.id, answer: { text: { method: "payroll", urgent: "n", attendees: "Ana" } } });
    await runtime.drain();
    const { reports } = await startWith([FileTask, withIban()]);
    expect(reports.map((report) => report.runs)).toEqual([1]);
  });

  it("does not count the runs on the definition running now", async () => {
    const { database, filer, restart } = await parkedOnTheOldDefinition(1);
    const changed = withIban();
    const { runtime } = restart({ workflows: [FileTask, changed] });
    const [task] = await database.db.insert(tasks).values({ workflow: "PayBack", title: "After the deploy", input: {}, createdBy: filer.id }).returning();
    await runtime.start(changed, task!);
    await runtime.drain();
    const { reports } = await startWith([FileTask, changed]);
    expect(reports.map((report) => report.runs)).toEqual([1]);
  });

  it("counts runs last moved before definitions were kept as on the first definition kept", async () => {
    const { database } = await parkedOnTheOldDefinition(2);
    await database.db.update(workflowInstances).set({ definitionFingerprint: null }).where(eq(workflowInstances.workflow, "PayBack"));
    const { reports } = await startWith([FileTask, withIban()]);
    expect(reports).toMatchObject([{ workflow: "PayBack", runs: 2, unknown: 0 }]);
  });

  it("says it cannot tell for runs last moved by a definition this deployment never kept", async () => {
    await parkedOnTheOldDefinition(2, { kept: false });
    const { lines } = await startWith([FileTask, withIban()]);
    expect(lines).toEqual([
      "Parley: warning: 2 runs of the workflow PayBack were last moved by a definition this deployment never kept (started by a process that does not keep definitions), " +
        "so Parley cannot tell whether the definition running now breaks them.",
    ]);
  });

  it("keeps each definition once however many servers start together, with when it was first seen", async () => {
    const { database } = await parkedOnTheOldDefinition(0, { kept: false });
    const first = new Date("2026-01-01T00:00:00Z");
    await Promise.all([1, 2, 3, 4].map(() => keepDefinitions(database.db, [FileTask, PayBack], first)));
    await keepDefinitions(database.db, [FileTask, PayBack], new Date("2026-02-01T00:00:00Z"));
    const kept = await database.db.select().from(workflowDefinitions).orderBy(workflowDefinitions.workflow);
    expect(kept.map((row) => [row.workflow, row.firstSeenAt.toISOString()])).toEqual([
      ["FileTask", first.toISOString()],
      ["PayBack", first.toISOString()],
    ]);
    expect(kept[1]!.description).toMatchObject({ workflow: "PayBack", states: { Asking: { enter: true, handles: ["PaidBack"] } } });
  });

  it("logs a failure to check and lets the server start", async () => {
    const unreachable = { execute: () => Promise.reject(new Error("connection refused")) } as unknown as Db;
    const { lines, reports } = await startWith([FileTask, PayBack], unreachable);
    expect(reports).toEqual([]);
    expect(lines).toEqual(["Parley: warning: could not check whether a changed workflow breaks runs parked on an earlier definition: connection refused"]);
  });

  it("checks again at every start: the warning lasts while the runs are parked", async () => {
    await parkedOnTheOldDefinition(1);
    const changed = withIban();
    expect((await startWith([FileTask, changed])).reports).toHaveLength(1);
    expect((await startWith([FileTask, changed])).reports).toHaveLength(1);
    const kept = await fixture!.database.db.select().from(workflowDefinitions).where(eq(workflowDefinitions.workflow, "PayBack"));
    expect(kept).toHaveLength(2);
  });
});

describe.runIf(DATABASE_KINDS.includes("postgres"))("counting the runs a changed workflow breaks (postgres)", () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("reads only the runs on other definitions, along the open-definition index, however many are on the current one", async () => {
    database = await createTestDatabase("postgres");
    const client = database.postgres!;
    await client.unsafe(`
      insert into workflow_instances (workflow, task_id, state, status, definition_fingerprint)
      select 'PayBack', gen_random_uuid(), 'Asking', 'waiting', 'current' from generate_series(1, 20000)
      union all select 'PayBack', gen_random_uuid(), 'Asking', 'waiting', 'older' from generate_series(1, 3)
      union all select 'PayBack', gen_random_uuid(), 'Asking', 'waiting', null from generate_series(1, 2)
      union all select 'PayBack', gen_random_uuid(), 'Completed', 'completed', 'older' from generate_series(1, 5000)`);
    await client.unsafe("vacuum analyze workflow_instances");
    const current = [{ workflow: "PayBack", fingerprint: "current", unrecorded: true }];
    expect(await countRunsOnOtherDefinitions(database.db, current)).toEqual([
      { workflow: "PayBack", fingerprint: null, state: "Asking", runs: 2 },
      { workflow: "PayBack", fingerprint: "older", state: "Asking", runs: 3 },
    ]);
    const plan = (await queryRows<{ "QUERY PLAN": string }>(database.db, sql`explain (analyze, costs off, timing off, summary off) ${runsOnOtherDefinitionsSql(current)}`))
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    expect(plan).toContain("workflow_instances_open_definition_idx");
    expect(plan).not.toMatch(/Seq Scan on workflow_instances/);
    // No step of the plan read more than the few runs on other definitions.
    expect(Math.max(...[...plan.matchAll(/actual rows=(\d+)/g)].map((match) => Number(match[1])))).toBeLessThan(10);
    expect(plan).not.toMatch(/Rows Removed by Filter: \d{3,}/);
  });
});
