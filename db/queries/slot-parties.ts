import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { groupMembers, slots } from "../schema";
import { s } from "./read-aliases";

/**
 * A slot's columns as a statement names them: over the alias `s` (`"s"."assignee_id"`), or bare
 * (`"assignee_id"`, for an `update slots` or a `from slots` with no alias).
 */
function slotColumns(prefix: "" | "s.") {
  const name = (column: PgColumn, aliased: PgColumn): SQL => (prefix === "" ? sql`${sql.identifier(column.name)}` : sql`${aliased}`);
  return {
    assigneeId: name(slots.assigneeId, s.assigneeId),
    candidateIds: name(slots.candidateIds, s.candidateIds),
    candidateGroupIds: name(slots.candidateGroupIds, s.candidateGroupIds),
    claimedBy: name(slots.claimedBy, s.claimedBy),
  };
}

/** The groups `userId` is in now, as a uuid[] expression. */
function groupsOf(userId: string): SQL {
  return sql`array(select ${groupMembers.groupId} from ${groupMembers} where ${groupMembers.userId} = ${userId}::uuid)`;
}

/**
 * Who a slot is for, as SQL over a slot's columns (`prefix` is its alias with a dot, e.g. `s.`, or
 * empty): its assignee, one of its named candidates, or a member of one of its candidate groups —
 * membership read as it is now, so someone added to a team sees the team's open questions.
 */
export function slotIsFor(prefix: "" | "s.", userId: string): SQL {
  const slot = slotColumns(prefix);
  return sql`(${slot.assigneeId} = ${userId}::uuid or ${slot.candidateIds} @> array[${userId}::uuid]
    or ${slot.candidateGroupIds} && ${groupsOf(userId)})`;
}

/**
 * Who may answer a slot now: someone it is for ({@link slotIsFor}), unless another candidate has
 * claimed it ("I'll take it"); the claimer and the assignee always may.
 */
export function slotAnswerableBy(prefix: "" | "s.", userId: string): SQL {
  const slot = slotColumns(prefix);
  return sql`(${slotIsFor(prefix, userId)} and (${slot.claimedBy} is null or ${slot.claimedBy} = ${userId}::uuid or ${slot.assigneeId} = ${userId}::uuid))`;
}

/** The people a slot is for, as a uuid[] expression: assignee, candidates and the candidate groups' members now. */
export function slotPartiesArray(prefix: "" | "s."): SQL {
  const slot = slotColumns(prefix);
  return sql`array(select distinct party from (
      select ${slot.assigneeId} as party where ${slot.assigneeId} is not null
      union all select unnest(${slot.candidateIds})
      union all select ${groupMembers.userId} from ${groupMembers} where ${groupMembers.groupId} = any(${slot.candidateGroupIds})
    ) parties)`;
}
