import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";
import { asks, questionSnoozes, slots } from "../schema";
import { hasWords } from "./question-words";
import { a, bareName, s, z } from "./read-aliases";
import { slotIsFor } from "./slot-parties";

/**
 * Snoozes (`question_snoozes`): a person puts an open question of theirs out of their inbox's sight
 * until a moment. Nothing else about the question changes — its SLA clock, its escalations, the
 * others it is put to — and it comes back by itself when the moment passes: the inbox's walks skip a
 * question only while its snooze lasts (db/queries/open-slot-walks.ts).
 */

/** Whether question `a` over slot `s` is open and one `userId` may see in their inbox. */
function openAndTheirs(userId: string) {
  return sql`${a.status} = 'open' and ${a.reason} is null and ${s.status} = 'open' and (${slotIsFor("s.", userId)} or ${s.claimedBy} = ${userId}::uuid)`;
}

/**
 * Snoozes question `questionId` for `userId` until `until`, if it is open and theirs; snoozing it again
 * moves the moment. Returns the moment kept, or null when the question is not an open one of theirs.
 */
export async function snoozeQuestion(db: Db, snooze: { questionId: string; userId: string; until: Date; at: Date }): Promise<Date | null> {
  const rows = await queryRows<{ until: string | Date }>(
    db,
    sql`insert into ${questionSnoozes} (${bareName(questionSnoozes.questionId)}, ${bareName(questionSnoozes.userId)}, ${bareName(questionSnoozes.until)}, ${bareName(questionSnoozes.snoozedAt)})
        select ${a.id}, ${snooze.userId}::uuid, ${snooze.until.toISOString()}::timestamptz, ${snooze.at.toISOString()}::timestamptz
          from ${asks} ${a} join ${slots} ${s} on ${s.id} = ${a.slotId}
         where ${a.id} = ${snooze.questionId}::uuid and ${openAndTheirs(snooze.userId)}
        on conflict (${bareName(questionSnoozes.questionId)}, ${bareName(questionSnoozes.userId)}) do update
          set ${bareName(questionSnoozes.until)} = excluded.${bareName(questionSnoozes.until)}, ${bareName(questionSnoozes.snoozedAt)} = excluded.${bareName(questionSnoozes.snoozedAt)}
        returning ${questionSnoozes.until} as until`,
  );
  return rows[0] ? new Date(rows[0].until) : null;
}

/** Ends `userId`'s snooze of `questionId` now; whether there was one still lasting at `now`. */
export async function wakeQuestion(db: Db, wake: { questionId: string; userId: string; now: Date }): Promise<boolean> {
  const rows = await queryRows<{ until: string | Date }>(
    db,
    sql`delete from ${questionSnoozes} where ${questionSnoozes.questionId} = ${wake.questionId}::uuid and ${questionSnoozes.userId} = ${wake.userId}::uuid
        returning ${questionSnoozes.until} as until`,
  );
  return rows.some((row) => new Date(row.until) > wake.now);
}

/** Until when `userId` snoozed `questionId`, if that is still to come at `now`. */
export async function snoozedUntil(db: Db, questionId: string, userId: string, now: Date): Promise<Date | null> {
  const rows = await queryRows<{ until: string | Date }>(
    db,
    sql`select ${questionSnoozes.until} as until from ${questionSnoozes}
         where ${questionSnoozes.questionId} = ${questionId}::uuid and ${questionSnoozes.userId} = ${userId}::uuid and ${questionSnoozes.until} > ${now.toISOString()}::timestamptz`,
  );
  return rows[0] ? new Date(rows[0].until) : null;
}

/** Which of `questionIds` `userId` has snoozed past `now`. */
export async function snoozedAmong(db: Db, userId: string, questionIds: readonly string[], now: Date): Promise<Set<string>> {
  if (questionIds.length === 0) return new Set();
  const rows = await queryRows<{ question_id: string }>(
    db,
    sql`select ${questionSnoozes.questionId} as question_id from ${questionSnoozes}
         where ${questionSnoozes.userId} = ${userId}::uuid and ${questionSnoozes.until} > ${now.toISOString()}::timestamptz
           and ${questionSnoozes.questionId} in (${sql.join(questionIds.map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
  return new Set(rows.map((row) => row.question_id));
}

/** One question out of its person's sight, as "Snoozed" lists it. */
export interface SnoozedQuestionRow {
  id: string;
  taskId: string;
  agent: string | null;
  workflow: string | null;
  title: string | null;
  specTitle: string | null;
  firstQuestion: string | null;
  openedAt: Date;
  dueAt: Date | null;
  until: Date;
}

/** How many open questions `userId` has snoozed past `now` (what the Snoozed tab counts on every view). */
export async function countSnoozedBy(db: Db, userId: string, now: Date): Promise<number> {
  const rows = await queryRows<{ count: number | string }>(
    db,
    sql`select count(*) as count
          from ${questionSnoozes} ${z}
          join ${asks} ${a} on ${a.id} = ${z.questionId}
          join ${slots} ${s} on ${s.id} = ${a.slotId}
         where ${z.userId} = ${userId}::uuid and ${z.until} > ${now.toISOString()}::timestamptz and ${openAndTheirs(userId)}`,
  );
  return Number(rows[0]?.count ?? 0);
}

/** How many snoozed questions "Snoozed" lists, soonest back first. */
export const SNOOZED_LISTED = 100;

/**
 * The open questions `userId` snoozed past `now`, soonest back first (at most {@link SNOOZED_LISTED}),
 * and how many there are in all — only those with `find`'s words when given (as the inbox's search
 * finds open questions). A snooze of a question that has since closed, or is no longer theirs, is not
 * listed.
 */
export async function listSnoozedBy(
  db: Db,
  userId: string,
  now: Date,
  find?: { text: string; workflowsNamed?: readonly string[] },
): Promise<{ rows: SnoozedQuestionRow[]; count: number }> {
  const text = find?.text.trim().toLowerCase() || null;
  const rows = await queryRows<{
    id: string;
    task_id: string;
    agent: string | null;
    workflow: string | null;
    title: string | null;
    spec_title: string | null;
    first_question: string | null;
    opened_at: string | Date;
    due_at: string | Date | null;
    until: string | Date;
    total: number | string;
  }>(
    db,
    sql`select ${a.id} as id, ${a.taskId} as task_id, ${a.agent} as agent, ${a.workflow} as workflow, ${a.title} as title,
               ${a.spec} ->> 'title' as spec_title, ${a.spec} #>> '{fields,0,question}' as first_question,
               ${s.openedAt} as opened_at, ${s.dueAt} as due_at, ${z.until} as until, count(*) over () as total
          from ${questionSnoozes} ${z}
          join ${asks} ${a} on ${a.id} = ${z.questionId}
          join ${slots} ${s} on ${s.id} = ${a.slotId}
         where ${z.userId} = ${userId}::uuid and ${z.until} > ${now.toISOString()}::timestamptz and ${openAndTheirs(userId)}${text === null ? sql`` : sql` and ${hasWords(text, find?.workflowsNamed ?? [])}`}
         order by ${z.until}, ${a.id}
         limit ${SNOOZED_LISTED}`,
  );
  return {
    count: rows[0] ? Number(rows[0].total) : 0,
    rows: rows.map((row) => ({
      id: row.id,
      taskId: row.task_id,
      agent: row.agent,
      workflow: row.workflow,
      title: row.title,
      specTitle: row.spec_title,
      firstQuestion: row.first_question,
      openedAt: new Date(row.opened_at),
      dueAt: row.due_at === null ? null : new Date(row.due_at),
      until: new Date(row.until),
    })),
  };
}
