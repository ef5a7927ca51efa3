import { afterEach, describe, expect, it } from "vitest";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { loadRunEnding, loadRunHistory } from "@/lib/run-history";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";
import { giveLongHistory } from "./long-run";

describe.each(DATABASE_KINDS)("a long run that was cancelled (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("says who cancelled it and what it withdrew, read from its latest events whichever page of them is shown", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const db = fixture.database.db;
    await giveLongHistory(db, { taskId: task.id, asks: 30, by: fixture.sam.id, from: new Date("2026-11-01T09:00:00.000Z") });
    await fixture.runtime.cancelRun(ReviewClaim, task.id, { by: fixture.omar.id });

    const latest = await loadRunHistory(db, task.id);
    const older = await loadRunHistory(db, task.id, { before: String(latest.older!.before) });
    expect(older.entries.some((entry) => entry.kind === "cancelled")).toBe(false);
    expect(await loadRunEnding(db, task.id, "cancelled")).toEqual({ cancelled: expect.objectContaining({ kind: "cancelled", by: "Omar Operator", withdrawn: 1 }) });
    expect(await loadRunEnding(db, task.id, "waiting")).toEqual({});
  });
});
