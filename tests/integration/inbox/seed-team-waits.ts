import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/** One team question as seeded: its ids and the times that order it. */
export interface SeededTeamWait {
  questionId: string;
  slotId: string;
  openedAt: Date;
  dueAt: Date | null;
}

/**
 * A group with `members`, and `count` open questions put to it (an API ask's slot and question each,
 * as the runtime writes them), in three statements however many: question `i` opened `i` minutes
 * before an hour ago, due `((i * 37) % count) - overdue` hours from `at` (so `overdue` are past due,
 * and no two are due at once while 37 does not divide `count`), every tenth without a deadline.
 */
export async function seedTeamWaits(db: Db, at: Date, options: { group: string; members: readonly string[]; count: number; overdue: number }): Promise<SeededTeamWait[]> {
  const groupId = randomUUID();
  const seed = randomUUID();
  await db.execute(sql`insert into groups (id, name) values (${groupId}, ${options.group})`);
  await db.execute(sql`insert into group_members (group_id, user_id) select ${groupId}::uuid, unnest(${`{${options.members.join(",")}}`}::uuid[])`);
  const id = (kind: string) => sql.raw(`md5('${seed}' || '${kind}' || i)::uuid`);
  const opened = sql`${at.toISOString()}::timestamptz - interval '1 hour' - i * interval '1 minute'`;
  const due = sql`case when i % 10 = 9 then null else ${at.toISOString()}::timestamptz + (((i * 37) % ${options.count}) - ${options.overdue}) * interval '1 hour' end`;
  const series = sql`generate_series(0, ${options.count - 1}) as i`;
  await db.execute(
    sql`insert into workflow_instances (id, workflow, task_id, state, status) select ${id("instance")}, 'ApiAsk', ${id("task")}, 'Asking', 'waiting' from ${series}`,
  );
  await db.execute(
    sql`insert into slots (id, workflow_instance_id, workflow, task_id, state, event, candidate_group_ids, status, opened_at, due_at)
        select ${id("slot")}, ${id("instance")}, 'ApiAsk', ${id("task")}, 'Asking', 'Answered', array[${groupId}::uuid], 'open', ${opened}, ${due} from ${series}`,
  );
  const spec = { version: 1, fields: [{ path: "answer", name: "answer", question: "Your answer", kind: "text", optional: false, nullable: false, hasDefault: false, hints: {} }], groups: [], crossFieldChecks: false };
  await db.execute(
    sql`insert into asks (id, task_id, workflow_instance_id, workflow, event, slot_id, title, spec, status, asked_at)
        select ${id("question")}, ${id("task")}, ${id("instance")}, 'ApiAsk', 'Answered', ${id("slot")}, 'Team question ' || i, ${JSON.stringify(spec)}::jsonb, 'open', ${opened}
          from ${series}`,
  );
  // The ids as PostgreSQL made them: md5 of the same text, read as a uuid.
  const uuidOf = (kind: string, i: number) => createHash("md5").update(`${seed}${kind}${i}`).digest("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  return Array.from({ length: options.count }, (_, i) => ({
    questionId: uuidOf("question", i),
    slotId: uuidOf("slot", i),
    openedAt: new Date(at.getTime() - 3_600_000 - i * 60_000),
    dueAt: i % 10 === 9 ? null : new Date(at.getTime() + (((i * 37) % options.count) - options.overdue) * 3_600_000),
  }));
}

/** The seeded questions in the inbox's order: soonest due first (no deadline last), then the longest waiting. */
export function inDueOrder(waits: readonly SeededTeamWait[]): SeededTeamWait[] {
  const due = (wait: SeededTeamWait) => wait.dueAt?.getTime() ?? Number.POSITIVE_INFINITY;
  return [...waits].sort((a, b) => due(a) - due(b) || a.openedAt.getTime() - b.openedAt.getTime());
}
