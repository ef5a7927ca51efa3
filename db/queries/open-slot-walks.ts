import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { asks, groupMembers, questionSnoozes, slots } from "../schema";
import { a, bareName, s, z } from "./read-aliases";

/**
 * A person's open questions, read a page at a time by index walks rather than by reading all of
 * them: the inbox (db/queries/inbox.ts) and the questions API (db/queries/runtime-questions.ts).
 *
 * The slots a person may answer come from four places, each with its own index, and are split so
 * that no slot is in two of them:
 * - `assigned`: slots assigned to them (`slots_open_assignee_idx`: assignee, then due order);
 * - `claimed`: slots they took ("I'll take it") and are not assigned to (`slots_open_claimed_idx`:
 *   holder, then due order) — theirs now, so the inbox lists them under Assigned to me;
 * - `named`: slots naming them as a candidate, neither assigned to them nor taken by them (`slots_open_candidates_idx`, GIN);
 * - `team`: slots put to a group they are in, not assigned to them, naming them or taken by them. Groups are kept
 *   on a slot as an array, which no index can order by one of its elements; but a slot is put to few
 *   distinct sets of groups (one team, or a team and the group an escalation added), so the sets are
 *   read by a skip scan of `slots_open_groups_due_idx` (one index step per distinct set) and each set
 *   of the person's is walked in due order along the same index, as far as the page needs.
 * Each walk reads its slots in order and stops at the page's length; the page is the first rows of
 * the walks merged. The order: soonest due first (no deadline last), then the longest waiting (when
 * the slot opened), then the oldest asked — or by when the slot opened, newest or oldest first.
 */
export type OpenPart = "assigned" | "claimed" | "named" | "team";
export const OPEN_PARTS: readonly OpenPart[] = ["assigned", "claimed", "named", "team"];

/** How a walk is ordered. */
export type OpenOrder = "due" | "newest" | "oldest";

/** A slot's place in due order, as the indexes hold it: no deadline last. */
export const DUE_ORDER = sql`coalesce(${s.dueAt}, 'infinity'::timestamptz)`;

/**
 * The columns every walk yields (besides what the caller adds): the slot and its place in the
 * order, the question and when it was asked.
 */
const WALK_COLUMNS = sql`${s.id} as ${bareName(asks.slotId)}, ${DUE_ORDER} as due_order, ${s.openedAt} as ${bareName(slots.openedAt)}, ${a.id} as ${bareName(asks.id)},
  ${a.askedAt} as ${bareName(asks.askedAt)}`;

/**
 * The walks' rows read back under a name (a CTE or a subquery: `page`, `cursor`, `t`): a question's
 * `id`, `slot_id` and `asked_at` and its slot's `opened_at`, named from the schema (`${page.question.id}`
 * renders `"page"."id"`), and `due_order`, the walks' own.
 */
export function walkedRows(name: string) {
  return { question: alias(asks, name), slot: alias(slots, name), dueOrder: sql`${sql.identifier(name)}.due_order` };
}
export type WalkedRows = ReturnType<typeof walkedRows>;

/** The walk's order over slots `s` and questions `a`. */
function slotOrder(order: OpenOrder): SQL {
  switch (order) {
    case "newest":
      return sql`${s.openedAt} desc, ${s.id} desc, ${a.askedAt} desc, ${a.id} desc`;
    case "oldest":
      return sql`${s.openedAt}, ${s.id}, ${a.askedAt}, ${a.id}`;
    default:
      return sql`${DUE_ORDER}, ${s.openedAt}, ${s.id}, ${a.askedAt}, ${a.id}`;
  }
}

/** The same order over the walks' output columns: read back under a name ({@link walkedRows}), or bare. */
export function rowOrder(order: OpenOrder, from?: WalkedRows): SQL {
  const [dueOrder, openedAt, slotId, askedAt, id] = from
    ? [from.dueOrder, sql`${from.slot.openedAt}`, sql`${from.question.slotId}`, sql`${from.question.askedAt}`, sql`${from.question.id}`]
    : [sql`due_order`, bareName(slots.openedAt), bareName(asks.slotId), bareName(asks.askedAt), bareName(asks.id)];
  switch (order) {
    case "newest":
      return sql`${openedAt} desc, ${slotId} desc, ${askedAt} desc, ${id} desc`;
    case "oldest":
      return sql`${openedAt}, ${slotId}, ${askedAt}, ${id}`;
    default:
      return sql`${dueOrder}, ${openedAt}, ${slotId}, ${askedAt}, ${id}`;
  }
}

/** Where a page starts: the place of the question it follows (every value null: a cursor that names nothing). */
export interface WalkCursor {
  dueOrder: SQL;
  openedAt: SQL;
  slotId: SQL;
  askedAt: SQL;
  id: SQL;
}

/** The statement's CTE `cursor`: one row of the walks' columns. */
const cursorRow = walkedRows("cursor");

/** The place of the question a page follows, read from the statement's CTE `cursor` (the walks' own columns). */
export const CURSOR_PLACE: WalkCursor = {
  dueOrder: sql`(select ${cursorRow.dueOrder} from cursor)`,
  openedAt: sql`(select ${cursorRow.slot.openedAt} from cursor)`,
  slotId: sql`(select ${cursorRow.question.slotId} from cursor)`,
  askedAt: sql`(select ${cursorRow.question.askedAt} from cursor)`,
  id: sql`(select ${cursorRow.question.id} from cursor)`,
};

/**
 * The conditions that keep the rows after `cursor` in `order`: one on the slot's place alone, which
 * the walk's index applies as it reads (a row comparison), and one on the whole key.
 */
export function afterCursor(order: OpenOrder, cursor: WalkCursor): SQL[] {
  const { dueOrder, openedAt, slotId, askedAt, id } = cursor;
  switch (order) {
    case "newest":
      return [
        sql`(${s.openedAt}, ${s.id}) <= (${openedAt}, ${slotId})`,
        sql`(${s.openedAt}, ${s.id}, ${a.askedAt}, ${a.id}) < (${openedAt}, ${slotId}, ${askedAt}, ${id})`,
      ];
    case "oldest":
      return [
        sql`(${s.openedAt}, ${s.id}) >= (${openedAt}, ${slotId})`,
        sql`(${s.openedAt}, ${s.id}, ${a.askedAt}, ${a.id}) > (${openedAt}, ${slotId}, ${askedAt}, ${id})`,
      ];
    default:
      return [
        sql`(${DUE_ORDER}, ${s.openedAt}, ${s.id}) >= (${dueOrder}, ${openedAt}, ${slotId})`,
        sql`(${DUE_ORDER}, ${s.openedAt}, ${s.id}, ${a.askedAt}, ${a.id}) > (${dueOrder}, ${openedAt}, ${slotId}, ${askedAt}, ${id})`,
      ];
  }
}

/** The groups `userId` is in, as a uuid[] expression. */
function groupsOf(userId: string): SQL {
  return sql`array(select ${groupMembers.groupId} from ${groupMembers} where ${groupMembers.userId} = ${userId}::uuid)`;
}

/**
 * The distinct sets of groups open slots are put to, as the CTE `team_sets(g)` (one row a set) of a
 * `with recursive`: a skip scan along `slots_open_groups_due_idx`, one index step per set, and none
 * at all for someone in no group.
 */
export function teamSetsCte(userId: string): SQL {
  return sql`team_sets(g) as (
      (select ${s.candidateGroupIds} from ${slots} ${s}
        where ${s.status} = 'open' and ${s.candidateGroupIds} <> '{}'::uuid[]
          and exists (select 1 from ${groupMembers} where ${groupMembers.userId} = ${userId}::uuid)
        order by ${s.candidateGroupIds} limit 1)
      union all
      select (select ${s.candidateGroupIds} from ${slots} ${s}
               where ${s.status} = 'open' and ${s.candidateGroupIds} <> '{}'::uuid[] and ${s.candidateGroupIds} > team_sets.g
               order by ${s.candidateGroupIds} limit 1)
        from team_sets where team_sets.g is not null
    )`;
}

/** Whom a part's slots are for, beyond being open (over slot `s`). */
function partCondition(part: OpenPart, userId: string): SQL {
  switch (part) {
    case "assigned":
      return sql`${s.assigneeId} = ${userId}::uuid`;
    case "claimed":
      return sql`${s.claimedBy} = ${userId}::uuid and ${s.assigneeId} is distinct from ${userId}::uuid`;
    case "named":
      return sql`${s.candidateIds} @> array[${userId}::uuid] and ${s.assigneeId} is distinct from ${userId}::uuid and ${s.claimedBy} is distinct from ${userId}::uuid`;
    case "team":
      return sql`${s.assigneeId} is distinct from ${userId}::uuid and not (${s.candidateIds} @> array[${userId}::uuid]) and ${s.claimedBy} is distinct from ${userId}::uuid`;
  }
}

/** Whether a slot `s` is in one part for `userId` (for one slot, e.g. a cursor's: no walk). */
export function inPart(part: OpenPart, userId: string): SQL {
  return part === "team"
    ? sql`(${partCondition(part, userId)} and ${s.candidateGroupIds} && ${groupsOf(userId)})`
    : sql`(${partCondition(part, userId)})`;
}

export interface WalkOptions {
  /** Columns to yield besides the walk's own (over slot `s` and question `a`). */
  columns?: SQL;
  /** More conditions over slot `s` and question `a` (a search, a cursor, a due filter). */
  where?: readonly SQL[];
  /** Read in this order (null: in no order, e.g. to count). */
  order: OpenOrder | null;
  /** At most this many rows (null: all). */
  limit: number | null;
  /**
   * Count walks: `limit` bounds the slots read, and every open question of those slots is yielded
   * (`where` may then name only the slot `s`). The planner, which cannot know that an open slot's
   * questions are open too, costs a walk that stops after so many questions as one that reads every
   * slot; one that stops after so many slots it costs as what it is.
   */
  slotsFirst?: boolean;
  /** Only slots they may answer now: none another candidate has taken ("I'll take it"). */
  answerableOnly?: boolean;
  /** Only questions the person has not snoozed past this moment (the inbox's views; see `question_snoozes`). */
  unsnoozedAt?: SQL;
}

/** Whether question `a` is out of `userId`'s sight at `at`: they snoozed it until later. */
export function snoozedBy(userId: string, at: SQL): SQL {
  return sql`exists (select 1 from ${questionSnoozes} ${z} where ${z.questionId} = ${a.id} and ${z.userId} = ${userId}::uuid and ${z.until} > ${at})`;
}

/**
 * One part's open questions for `userId` — open slots joined with their open questions — as a
 * parenthesised select yielding `slot_id, due_order, opened_at, id, asked_at` and the extra
 * columns. A `team` walk reads the CTE of {@link teamSetsCte}, which the statement must define.
 */
export function openWalk(part: OpenPart, userId: string, options: WalkOptions): SQL {
  const conditions = [
    sql`${s.status} = 'open'`,
    ...(part === "team" ? [sql`${s.candidateGroupIds} <> '{}'::uuid[] and ${s.candidateGroupIds} = sets.g`] : []),
    partCondition(part, userId),
    ...(options.answerableOnly && part !== "assigned" ? [sql`(${s.claimedBy} is null or ${s.claimedBy} = ${userId}::uuid)`] : []),
    ...(options.where ?? []),
  ];
  const columns = options.columns ? sql`${WALK_COLUMNS}, ${options.columns}` : WALK_COLUMNS;
  const order = options.order ? sql` order by ${slotOrder(options.order)}` : sql``;
  const limit = options.limit === null ? sql`` : sql` limit ${options.limit}`;
  const questions = sql`join ${asks} ${a} on ${a.slotId} = ${s.id} and ${a.status} = 'open' and ${a.reason} is null`;
  // A condition on the question itself: a count walk applies it to the questions of the slots it read.
  const ofQuestion = options.unsnoozedAt ? [sql`not ${snoozedBy(userId, options.unsnoozedAt)}`] : [];
  const walk = options.slotsFirst
    ? sql`select ${columns} from (select ${s}.* from ${slots} ${s} where ${sql.join(conditions, sql` and `)}${limit}) ${s} ${questions}${ofQuestion.length > 0 ? sql` where ${sql.join(ofQuestion, sql` and `)}` : sql``}`
    : sql`select ${columns} from ${slots} ${s} ${questions} where ${sql.join([...conditions, ...ofQuestion], sql` and `)}${order}${limit}`;
  if (part !== "team") return sql`(${walk})`;
  // Each of the person's sets of groups, walked along its own stretch of the index.
  const outerOrder = options.order ? sql` order by ${rowOrder(options.order, walkedRows("t"))}` : sql``;
  return sql`(select t.* from (select g from team_sets where g && ${groupsOf(userId)}) sets
      cross join lateral (${walk}) t${outerOrder}${options.slotsFirst ? sql`` : limit})`;
}

/**
 * True, in a way that keeps the statement it is in from a parallel plan (migration 0018's
 * `parley_serial_read()`, PARALLEL UNSAFE, folded to true before it runs). These reads are bounded
 * walks, which workers only slow; and for a busy person the planner, expecting few open waits to
 * have an open question, would start them (measured: 700 ms with two workers against 115 ms without,
 * for the busiest person's inbox on a loaded machine).
 */
export const SERIAL_READ = sql.raw(`parley_serial_read()`);
