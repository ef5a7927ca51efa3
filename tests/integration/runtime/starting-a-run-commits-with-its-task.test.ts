import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("starting a run (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("inside the task's transaction leaves nothing behind when that transaction rolls back", async () => {
    fixture = await createRuntimeFixture(kind);
    const { db } = fixture.database;
    const starting = db.transaction(async (tx) => {
      const [task] = await tx.insert(tasks).values({ workflow: FileTask.name, title: "Travel receipts", input: {}, createdBy: fixture.filer.id }).returning();
      await fixture.runtime.start(FileTask, task!, { db: tx as unknown as Db });
      throw new Error("the request failed after starting");
    });
    await expect(starting).rejects.toThrow("the request failed after starting");
    expect(await countRows(db, "workflow_instances")).toBe(0);
    expect(await countRows(db, "jobs")).toBe(0);
    expect(await countRows(db, "run_events")).toBe(0);
  });

  it("a second time for the same task does nothing", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    expect(await fixture.runtime.start(FileTask, task)).toEqual({ started: false });
    expect(await countRows(fixture.database.db, "jobs")).toBe(1);
    expect(await countRows(fixture.database.db, "run_events", "kind = 'run-started'")).toBe(1);
  });
});
