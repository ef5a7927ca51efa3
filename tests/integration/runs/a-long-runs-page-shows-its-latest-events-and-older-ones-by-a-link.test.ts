import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { RunEvents } from "@/app/(app)/tasks/[id]/run-events";
import { listRunEvents } from "@/db/queries/runtime-events";
import { listAnswersForTask, namesOf } from "@/db/queries/runs";
import { loadRunHistory, RUN_EVENTS_PAGE_SIZE, type RunHistory } from "@/lib/run-history";
import { runEntries } from "@/lib/run-view";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";
import { giveLongHistory } from "./long-run";

describe.each(DATABASE_KINDS)("a long run's page (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  /** A review whose Auditor asked (and was answered) 20 times before its open question: about 190 events. */
  async function longRun() {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    await giveLongHistory(fixture.database.db, { taskId: task.id, asks: 20, by: fixture.sam.id, from: new Date("2026-11-01T09:00:00.000Z") });
    return { taskId: task.id, events: await listRunEvents(fixture.database.db, task.id) };
  }

  const markupOf = (taskId: string, history: RunHistory) => renderToStaticMarkup(createElement(RunEvents, { taskId, history, workflow: "ReviewClaim", workflowLabel: "Expense review", model: { kind: "scripted" } }));

  it("shows its latest 50 events, oldest first, with a link to the 50 before them", async () => {
    const { taskId, events } = await longRun();
    expect(events.length).toBeGreaterThan(3 * RUN_EVENTS_PAGE_SIZE);

    const history = await loadRunHistory(fixture!.database.db, taskId);
    const latest = events.slice(-RUN_EVENTS_PAGE_SIZE);
    // The page begins at a line of its own, never inside a model turn whose start is older.
    const first = latest.findIndex((event) => !["turn-finished", "turn-failed", "tool-called"].includes(event.kind));
    const shown = latest.slice(first);
    expect(history.entries.at(-1)?.id).toBe(events.at(-1)!.id);
    expect(history.entries[0]?.id).toBe(shown[0]!.id);
    expect(history.entries.every((entry, index) => index === 0 || entry.id > history.entries[index - 1]!.id)).toBe(true);
    expect(history).toMatchObject({ latest: true, invalidCursor: false, older: { before: shown[0]!.id, count: RUN_EVENTS_PAGE_SIZE } });

    const markup = markupOf(taskId, history);
    expect(markup).toContain(`href="/tasks/${taskId}?before=${shown[0]!.id}#run-events"`);
    expect(markup).toContain("Show 50 older events");
    expect(markup).not.toContain("Back to the latest events");
  });

  it("following the link shows the events before them, and the way back to the latest", async () => {
    const { taskId, events } = await longRun();
    const db = fixture!.database.db;
    const latest = await loadRunHistory(db, taskId);
    const older = await loadRunHistory(db, taskId, { before: String(latest.older!.before) });

    expect(older.latest).toBe(false);
    expect(older.entries.at(-1)!.id).toBeLessThan(latest.older!.before);
    expect(events.filter((event) => event.id < latest.older!.before && event.id >= older.entries[0]!.id)).toHaveLength(RUN_EVENTS_PAGE_SIZE);
    const markup = markupOf(taskId, older);
    expect(markup).toContain(`href="/tasks/${taskId}#run-events"`);
    expect(markup).toContain("Back to the latest events");
    expect(markup).toContain(`href="/tasks/${taskId}?before=${older.older!.before}#run-events"`);
  });

  it("read a page at a time, with any page size, tells the whole run once: the same lines as all its events, no model turn cut in two", async () => {
    const { taskId, events } = await longRun();
    const db = fixture!.database.db;
    const people = events.flatMap((event) => (typeof event.data.by === "string" ? [event.data.by] : []));
    const whole = runEntries(events, { names: await namesOf(db, people), answers: await listAnswersForTask(db, taskId) });

    for (const pageSize of [RUN_EVENTS_PAGE_SIZE, 7, 10, 11]) {
      const pages: RunHistory[] = [];
      let before: string | undefined;
      do {
        const page = await loadRunHistory(db, taskId, { before, pageSize });
        pages.unshift(page);
        before = page.older ? String(page.older.before) : undefined;
      } while (before);
      expect(pages.flatMap((page) => page.entries)).toEqual(whole);
      expect(pages[0]!.older).toBeNull();
    }
  });
});
