import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { deployApproval } from "@/examples/deploy-approval";
import { DeployApproval } from "@/examples/deploy-approval/deploy-approval";
import { createRegistry, startPlatformTask } from "@/lib/registry";
import { loadRuns } from "@/lib/runs";
import { createRuntime } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("the runs list (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** Starts `count` runs, one after another; returns their task ids, oldest first. */
  async function startRuns(count: number): Promise<string[]> {
    database = await createTestDatabase(kind);
    const [lee] = (await insertUsersIfAbsent(database.db, [{ email: "lee@parley.test", name: "Lee Okafor", roles: ["assignee", "operator"] }])) as [User];
    const runtime = createRuntime({ db: database.db, workflows: [DeployApproval] });
    const ids: string[] = [];
    for (let index = 0; index < count; index++) {
      const input = { service: `svc-${index}`, version: "1.0.0", environment: "staging" as const, change: "A change.", rollbackTested: false, approverId: lee.id };
      ids.push((await startPlatformTask(database.db, runtime, DeployApproval, { title: `Deploy svc-${index}`, input, by: lee.id })).id);
    }
    return ids;
  }

  it("pages from the newest run to the oldest, each run on exactly one page", async () => {
    const ids = await startRuns(5);
    const registry = createRegistry({ apps: [deployApproval] });
    const pages: string[][] = [];
    let after: string | undefined;
    do {
      const page = await loadRuns(database!.db, registry, { pageSize: 2, after });
      pages.push(page.rows.map((row) => row.taskId));
      after = page.next;
    } while (after);
    expect(pages).toEqual([
      [ids[4], ids[3]],
      [ids[2], ids[1]],
      [ids[0]],
    ]);
  });

  it("leaves out the asks agents made over the API when asked to, in its rows and its counts", async () => {
    const ids = await startRuns(2);
    const ask = randomUUID();
    await database!.db.execute(sql`insert into workflow_instances (workflow, task_id, state, status) values ('ApiAsk', ${ask}, 'Asking', 'waiting')`);
    const registry = createRegistry({ apps: [deployApproval] });
    const all = await loadRuns(database!.db, registry, {});
    expect(all.rows.map((row) => row.taskId)).toEqual([ask, ids[1], ids[0]]);
    const people = await loadRuns(database!.db, registry, { withoutApiAsks: true });
    expect(people.rows.map((row) => row.taskId)).toEqual([ids[1], ids[0]]);
    expect([people.total.count, all.total.count, people.counts.waiting.count, all.counts.waiting.count]).toEqual([2, 3, 0, 1]);
  });

  it("starts from the newest when the cursor is not a task id, and has nothing older than the oldest", async () => {
    const ids = await startRuns(3);
    const registry = createRegistry({ apps: [deployApproval] });
    expect((await loadRuns(database!.db, registry, { pageSize: 2, after: "' or 1=1 --" })).rows.map((row) => row.taskId)).toEqual([ids[2], ids[1]]);
    const oldest = await loadRuns(database!.db, registry, { pageSize: 2, after: ids[0] });
    expect(oldest.rows).toEqual([]);
    expect(oldest.next).toBeUndefined();
  });
});
