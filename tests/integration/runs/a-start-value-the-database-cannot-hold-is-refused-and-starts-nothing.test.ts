import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { AppError } from "@/lib/errors";
import { createRegistry, defineApp, defineStart, describePlatformTasks, startPlatformTask } from "@/lib/registry";
import { startRunOnce, VALUE_NOT_STORED } from "@/lib/runs";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "../runtime/fixture-workflow";

describe.each(DATABASE_KINDS)("a start value the database cannot hold (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("is refused as the operator's to fix, in plain words, and nothing of the run is kept", async () => {
    fixture = await createRuntimeFixture(kind, { workflows: [FileTask] });
    const registry = createRegistry({
      apps: [
        defineApp({
          name: "dates",
          workflows: [
            {
              workflow: FileTask,
              label: "File a task",
              describe: (db, taskIds) => describePlatformTasks(db, taskIds),
              start: defineStart({
                input: z.object({ day: z.string().describe("Which day?") }),
                // The app starts the run, then keeps the day in a date column of its own: year 0 does not fit.
                run: async ({ db, runtime, by }, input) => {
                  const task = await startPlatformTask(db, runtime, FileTask, { title: "Dated", input, by });
                  await db.execute(sql`select ${input.day}::date`);
                  return { taskId: task.id };
                },
              }),
            },
          ],
        }),
      ],
    });
    const token = randomUUID();
    const start = startRunOnce(fixture.database.db, registry.entry(FileTask.name)!, {
      token,
      input: { day: "0000-01-01" },
      context: { runtime: fixture.runtime, by: fixture.outsider.id, now: new Date() },
    });
    await expect(start).rejects.toEqual(new AppError("invalid_input", VALUE_NOT_STORED));
    const kept = await queryRows<{ runs: number | string; tasks: number | string; starts: number | string }>(
      fixture.database.db,
      sql`select (select count(*) from workflow_instances) as runs, (select count(*) from tasks) as tasks, (select count(*) from run_starts) as starts`,
    );
    expect([Number(kept[0]!.runs), Number(kept[0]!.tasks), Number(kept[0]!.starts)]).toEqual([0, 0, 0]);
  });
});
