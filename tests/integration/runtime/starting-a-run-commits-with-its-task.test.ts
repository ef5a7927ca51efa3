import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { claims, reviewTasks } from "@/examples/expense-review/schema";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { createExampleFixture, type ExampleFixture, UNEXPLAINED_CLAIM } from "./example-fixture";

describe.each(DATABASE_KINDS)("starting a run (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("inside the task's transaction leaves nothing behind when that transaction rolls back", async () => {
    fixture = await createExampleFixture(kind);
    const { db } = fixture.database;
    const starting = db.transaction(async (tx) => {
      const [claim] = await tx.insert(claims).values(UNEXPLAINED_CLAIM).returning();
      const [task] = await tx.insert(reviewTasks).values({ claimId: claim!.id }).returning();
      await fixture.runtime.start(ReviewClaim, task!, { db: tx as unknown as Db });
      throw new Error("the request failed after starting");
    });
    await expect(starting).rejects.toThrow("the request failed after starting");
    expect(await countRows(db, "workflow_instances")).toBe(0);
    expect(await countRows(db, "jobs")).toBe(0);
    expect(await countRows(db, "run_events")).toBe(0);
  });

  it("a second time for the same task does nothing", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    expect(await fixture.runtime.start(ReviewClaim, task)).toEqual({ started: false });
    expect(await countRows(fixture.database.db, "jobs")).toBe(1);
    expect(await countRows(fixture.database.db, "run_events", "kind = 'run-started'")).toBe(1);
  });
});
