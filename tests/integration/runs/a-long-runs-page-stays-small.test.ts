import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { HandoffGraphView } from "@/app/(app)/tasks/[id]/handoff-graph";
import { RunEvents } from "@/app/(app)/tasks/[id]/run-events";
import { loadHandoffGraph, loadRunHistory } from "@/lib/run-history";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";
import { EVENTS_PER_ASK, giveLongHistory } from "./long-run";

/** What the events and who-handed-to-whom may take of a run page, whose whole HTML is to stay under about 200 KB. */
const BUDGET_BYTES = 100_000;

describe.each(DATABASE_KINDS)("the run page of a run as long as issue 34 measured (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("stays small, on its latest page and on an older one, whatever the run's length: 9,000 events and 1,002 answers", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const db = fixture.database.db;
    await giveLongHistory(db, { taskId: task.id, asks: 1_002, by: fixture.sam.id, from: new Date("2026-10-01T09:00:00.000Z") });

    const graph = await loadHandoffGraph(db, task.id);
    expect(graph).toEqual({ agents: [{ name: "Auditor", turns: 1_002 + 1 }], edges: [] });
    const latest = await loadRunHistory(db, task.id);
    const older = await loadRunHistory(db, task.id, { before: String(latest.older!.before - 500 * EVENTS_PER_ASK) });
    for (const history of [latest, older]) {
      const markup = renderToStaticMarkup(createElement("div", null, createElement(RunEvents, { taskId: task.id, history, workflow: "ReviewClaim", workflowLabel: "Expense review", model: { kind: "scripted" } }), createElement(HandoffGraphView, { graph })));
      expect(history.entries.filter((entry) => entry.kind === "answer").length).toBeGreaterThan(0);
      expect(Buffer.byteLength(markup)).toBeLessThan(BUDGET_BYTES);
    }
  });
});
