import { type SQL, sql } from "drizzle-orm";

/**
 * Who a slot is for, as SQL over a slot's columns (`prefix` is its alias with a dot, e.g. `s.`, or
 * empty): its assignee, one of its named candidates, or a member of one of its candidate groups —
 * membership read as it is now, so someone added to a team sees the team's open questions.
 */
export function slotIsFor(prefix: "" | "s.", userId: string): SQL {
  const p = sql.raw(prefix);
  return sql`(${p}assignee_id = ${userId}::uuid or ${p}candidate_ids @> array[${userId}::uuid]
    or ${p}candidate_group_ids && array(select group_id from group_members where user_id = ${userId}::uuid))`;
}

/**
 * Who may answer a slot now: someone it is for ({@link slotIsFor}), unless another candidate has
 * claimed it ("I'll take it"); the claimer and the assignee always may.
 */
export function slotAnswerableBy(prefix: "" | "s.", userId: string): SQL {
  const p = sql.raw(prefix);
  return sql`(${slotIsFor(prefix, userId)} and (${p}claimed_by is null or ${p}claimed_by = ${userId}::uuid or ${p}assignee_id = ${userId}::uuid))`;
}

/** The people a slot is for, as a uuid[] expression: assignee, candidates and the candidate groups' members now. */
export function slotPartiesArray(prefix: "" | "s."): SQL {
  const p = sql.raw(prefix);
  return sql`array(select distinct party from (
      select ${p}assignee_id as party where ${p}assignee_id is not null
      union all select unnest(${p}candidate_ids)
      union all select user_id from group_members where group_id = any(${p}candidate_group_ids)
    ) parties)`;
}
