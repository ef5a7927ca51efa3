import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { RunEvents } from "@/app/(app)/tasks/[id]/run-events";
import { loadRunHistory } from "@/lib/run-history";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";
import { giveLongHistory } from "./long-run";

describe.each(DATABASE_KINDS)("a run page's ?before= (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  async function longRun(): Promise<string> {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    await giveLongHistory(fixture.database.db, { taskId: task.id, asks: 10, by: fixture.sam.id, from: new Date("2026-11-01T09:00:00.000Z") });
    return task.id;
  }

  it("that the page does not make shows the latest events and says so, never an error", async () => {
    const taskId = await longRun();
    const db = fixture!.database.db;
    const latest = await loadRunHistory(db, taskId);
    for (const before of ["abc", "-5", "0", "007", "1.5", "1e3", "99999999999999999999", "9223372036854775808", "1; drop table run_events", ["1", "2"], 12]) {
      const page = await loadRunHistory(db, taskId, { before });
      expect(page, `?before=${String(before)}`).toEqual({ ...latest, invalidCursor: true });
      const markup = renderToStaticMarkup(createElement(RunEvents, { taskId, history: page, workflow: "ReviewClaim", workflowLabel: "Expense review", model: { kind: "scripted" } }));
      expect(markup).toContain("That link to older events is not one this page makes, so here are the latest.");
    }
  });

  it("before the run's first event shows none, and the way back to the latest", async () => {
    const taskId = await longRun();
    const page = await loadRunHistory(fixture!.database.db, taskId, { before: "1" });
    expect(page).toEqual({ entries: [], older: null, latest: false, invalidCursor: false });
    const markup = renderToStaticMarkup(createElement(RunEvents, { taskId, history: page, workflow: "ReviewClaim", workflowLabel: "Expense review", model: { kind: "scripted" } }));
    expect(markup).toContain("There are no events before that one.");
    expect(markup).toContain(`href="/tasks/${taskId}#run-events"`);
  });
});
