import type { ModelMessage } from "ai";
import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../client";
import { asks, conversationMessages, runEvents, slots, users } from "../schema";
import type { QuestionSpec } from "../types/question-spec";
import { afterCursor, CURSOR_PLACE, DUE_ORDER, inPart, OPEN_PARTS, type OpenOrder, type OpenPart, openWalk, rowOrder, SERIAL_READ, teamSetsCte, type WalkCursor, walkedRows } from "./open-slot-walks";
import { hasWords } from "./question-words";
import { a, bareName, s } from "./read-aliases";
import { slotIsFor } from "./slot-parties";

/** A question someone answered (or that closed with nothing while it was theirs), for "Answered by me". */
export interface AnsweredQuestionRow {
  id: string;
  taskId: string;
  agent: string | null;
  workflow: string | null;
  title: string | null;
  question: string;
  status: string;
  reason: string | null;
  askedAt: Date;
  answeredAt: Date | null;
  waitMs: number | null;
  /** The question's spec and what was answered, as stored (null when it closed with nothing). */
  spec: QuestionSpec;
  answer: unknown;
}

/** The questions someone answered ({@link answeredBy}'s CTE of question ids). */
const mine = alias(asks, "mine");

/**
 * The questions `userId` answered (or whose slot they finished), as the statement's `a` (question) and
 * `s` (its slot), for "Answered by me" newest first: by when the answer was recorded on the question,
 * else when its slot was finished.
 *
 * Read from three short index scans rather than every question and slot: the newest `limit` recorded
 * as theirs, those recorded as theirs without a time yet, and the questions of the newest `limit`
 * slots with questions they finished. Together these hold the newest `limit` of the whole definition,
 * because the runtime records an answer on a question no earlier than its slot finishes, and only in
 * the name of whoever finished it.
 */
function answeredBy(userId: string, limit: number): { with: SQL; from: SQL } {
  return {
    with: sql`with ${mine} as (
          (select ${asks.id} as id from ${asks} where ${asks.answeredBy} = ${userId} and ${asks.answeredAt} is not null order by ${asks.answeredAt} desc limit ${limit})
          union
          select ${asks.id} as id from ${asks} where ${asks.answeredBy} = ${userId} and ${asks.answeredAt} is null
          union
          (select ${a.id} as id from (select ${s.id} from ${slots} ${s} where ${s.finishedBy} = ${userId} and exists (select 1 from ${asks} where ${asks.slotId} = ${s.id})
                               order by ${s.finishedAt} desc limit ${limit}) ${s}
             join ${asks} ${a} on ${a.slotId} = ${s.id})
        )`,
    from: sql`from ${mine} join ${asks} ${a} on ${a.id} = ${mine.id} left join ${slots} ${s} on ${s.id} = ${a.slotId}
         where (${a.answeredBy} = ${userId} or ${s.finishedBy} = ${userId})`,
  };
}

/**
 * How far back a search of what someone answered looks: their newest answers up to this many, so that
 * a search costs the same for someone who has answered for years.
 */
export const ANSWERED_SEARCHED = 500;

/**
 * The words of answered question `a`'s answer a search looks in, in lower case: each value given, with
 * a code's underscores read as spaces (`bank_transfer` is found by "bank transfer", as its label reads).
 */
const ANSWER_WORDS = sql`lower(replace((select string_agg(value, ' ') from jsonb_each_text(case when jsonb_typeof(${a.answer}) = 'object' then ${a.answer} else '{}'::jsonb end)), '_', ' '))`;

/**
 * The questions `userId` answered (or whose slot they finished), newest first; at most `limit`. With
 * `find`, only those with its words in the question, who asks it or the answer given, among their
 * newest {@link ANSWERED_SEARCHED}.
 */
export async function listAnsweredBy(
  db: Db,
  userId: string,
  limit = 50,
  find?: { text: string; workflowsNamed?: readonly string[] },
): Promise<AnsweredQuestionRow[]> {
  const text = find?.text.trim().toLowerCase() || null;
  const answered = answeredBy(userId, text === null ? limit : ANSWERED_SEARCHED);
  const found = text === null ? sql`` : sql` and (${hasWords(text, find?.workflowsNamed ?? [])} or position(${text}::text in coalesce(${ANSWER_WORDS}, '')) > 0)`;
  const rows = await queryRows<{
    id: string;
    task_id: string;
    agent: string | null;
    workflow: string | null;
    title: string | null;
    question: string | null;
    status: string;
    reason: string | null;
    asked_at: string | Date;
    answered_at: string | Date | null;
    wait_ms: string | number | null;
    spec: QuestionSpec | string;
    answer: unknown;
  }>(
    db,
    sql`${answered.with}
        select ${a.id} as id, ${a.taskId} as task_id, ${a.agent} as agent, ${a.workflow} as workflow, ${a.title} as title,
               ${a.spec} #>> '{fields,0,question}' as question, ${a.status} as status, ${a.reason} as reason,
               ${a.askedAt} as asked_at, coalesce(${a.answeredAt}, ${s.finishedAt}) as answered_at, ${s.waitMs} as wait_ms, ${a.spec} as spec, ${a.answer} as answer
          ${answered.from}${found}
         order by coalesce(${a.answeredAt}, ${s.finishedAt}) desc nulls last
         limit ${limit}`,
  );
  return rows.map((row) => ({
    id: row.id,
    taskId: row.task_id,
    agent: row.agent,
    workflow: row.workflow,
    title: row.title,
    question: row.question ?? "",
    status: row.status,
    reason: row.reason,
    askedAt: new Date(row.asked_at),
    answeredAt: row.answered_at === null ? null : new Date(row.answered_at),
    waitMs: row.wait_ms === null ? null : Number(row.wait_ms),
    spec: typeof row.spec === "string" ? (JSON.parse(row.spec) as QuestionSpec) : row.spec,
    answer: row.answer,
  }));
}

/** How many questions {@link listAnsweredBy} lists for `userId` with that `limit`, without reading them. */
export async function countAnsweredBy(db: Db, userId: string, limit = 50): Promise<number> {
  const answered = answeredBy(userId, limit);
  const [row] = await queryRows<{ count: number | string }>(db, sql`${answered.with} select count(*) as count from (select 1 ${answered.from} limit ${limit}) listed`);
  return Number(row?.count ?? 0);
}

/** The open questions a person may answer, split as the inbox shows them. */
export type OpenInboxView = "assigned" | "candidates" | "team" | "overdue";
/** Where a page of open questions is read from: one view, or every open question of theirs (a search of everything). */
export type OpenInboxScope = OpenInboxView | "everything";
/** The one view an open question is in for a person (Overdue also shows it when it is late). */
export type OpenQuestionView = Exclude<OpenInboxView, "overdue">;

/**
 * How far the inbox counts each view: a view with more open questions than this reads as "1,000+"
 * (`countsAtLeast`), so a member of a team with fifty thousand open questions costs the same to
 * count as one with a thousand.
 */
export const INBOX_COUNT_CAP = 1_000;

/** One open question in someone's inbox, with what the row shows. */
export interface OpenQuestionRow {
  id: string;
  taskId: string;
  agent: string | null;
  workflow: string | null;
  title: string | null;
  /** The question's spec's title and its first field's question: what a headline is made of without a title. */
  specTitle: string | null;
  firstQuestion: string | null;
  askedAt: Date;
  openedAt: Date;
  dueAt: Date | null;
  assigneeId: string | null;
  /** The member who took it ("I'll take it"), while they hold it. */
  claimedBy: { id: string; name: string } | null;
  /** The person it was meant for, away, whose delegate this person is. */
  delegatedFrom: string | null;
  /** Which view of theirs it is in. */
  view: OpenQuestionView;
}

/** A page of someone's open questions, and how many there are in each view. */
export interface OpenInboxPage {
  /** How many open questions each view has, up to {@link INBOX_COUNT_CAP}. */
  counts: Record<OpenInboxView, number>;
  /** The views with more than {@link INBOX_COUNT_CAP} (their count is the cap). */
  countsAtLeast: Record<OpenInboxView, boolean>;
  /** How many of the view's questions the search keeps (up to the cap); the view's count when nothing is searched for. */
  matching: number;
  /** Whether more than {@link INBOX_COUNT_CAP} are kept. */
  matchingAtLeast: boolean;
  /**
   * Who asks the person's open questions (an agent's name, else the flow's), each once, for a filter:
   * read from the questions counted, so from at most {@link INBOX_COUNT_CAP} of each view's.
   */
  askers: string[];
  rows: OpenQuestionRow[];
  /** The last question shown, to read the next page after; null on the last page. */
  next: string | null;
}

/** When a question is due, as the inbox filters it: past due, due within a day or a week from now, or with no deadline. */
export const INBOX_DUE_FILTERS = ["overdue", "day", "week", "none"] as const;
export type InboxDue = (typeof INBOX_DUE_FILTERS)[number];

/**
 * How a page of open questions is ordered: soonest due first (no deadline last, then the longest
 * waiting), or by when they were put to the person, newest or oldest first.
 */
export const INBOX_SORTS = ["due", "newest", "oldest"] as const;
export type InboxSort = (typeof INBOX_SORTS)[number];

/** What a person looks for in their open questions: words in the question, who asks, when it is due; and the order. */
export interface InboxSearch {
  /** Words to find in the question (its title, every field's question) or in who asks it. */
  text?: string | null;
  /** Flows whose name, as people know it, has the words: their questions are found too. */
  workflowsNamed?: readonly string[];
  asker?: string | null;
  /** Only questions due so (null: any). */
  due?: InboxDue | null;
  /** Default `due`. */
  sort?: InboxSort;
}

/** Each due filter over slot `s`, as conditions its due-order index can range over (`now` the moment read). */
function dueCondition(due: InboxDue, now: SQL): SQL {
  switch (due) {
    case "overdue":
      return sql`${DUE_ORDER} <= ${now}`;
    case "day":
      return sql`${DUE_ORDER} > ${now} and ${DUE_ORDER} <= ${now} + interval '1 day'`;
    case "week":
      return sql`${DUE_ORDER} > ${now} and ${DUE_ORDER} <= ${now} + interval '7 days'`;
    case "none":
      return sql`${DUE_ORDER} = 'infinity'::timestamptz and ${s.dueAt} is null`;
  }
}

/** The page of walked rows the inbox reads its questions by (its CTE `page`); the cursor's question as `found`; the views' counted rows `sample` and `overdue`. */
const pageRows = walkedRows("page");
const cursorFound = walkedRows("found");
const sampled = walkedRows("sample");
const overdueRows = walkedRows("overdue");

/** The parts of a person's open slots (db/queries/open-slot-walks.ts) each view is made of. */
const VIEW_PARTS: Record<OpenInboxScope, readonly OpenPart[]> = { assigned: ["assigned", "claimed"], candidates: ["named"], team: ["team"], overdue: OPEN_PARTS, everything: OPEN_PARTS };

/** The rows of several walks merged, in `order`, at most `limit`. */
function merged(walks: SQL[], order: OpenOrder, limit: number): SQL {
  return sql`select * from (${sql.join(walks, sql` union all `)}) walked order by ${rowOrder(order)} limit ${limit}`;
}

/** How many rows of several walks there are, up to one more than the cap (unordered walks, each stopping there too). */
function countedUpToCap(walks: SQL[]): SQL {
  const each = walks.map((walk, index) => sql`select 1 from ${walk} ${sql.raw(`w${index}`)}`);
  return sql`(select count(*) from (${sql.join(each, sql` union all `)} limit ${INBOX_COUNT_CAP + 1}) counted)`;
}

/**
 * The questions `userId` may answer now — open, with an open slot that names them as assignee or
 * candidate or is put to a group of theirs — counted by view, and one page of a view: soonest due
 * first (no deadline last, then the longest waiting), or by `find.sort` newest or oldest first,
 * starting after the question `after` (when it is one of theirs in that view; else from the start).
 * `find` keeps only questions with its words, asked by its asker, due as it says (`matching` counts
 * them).
 *
 * One statement, of index walks that stop where the page does (db/queries/open-slot-walks.ts): the
 * page reads about as many questions as it shows, whichever view and however many the person has;
 * each view is counted up to {@link INBOX_COUNT_CAP} and no further. Words are looked for question by
 * question along the walk, so a search that keeps few reads as far as it must to fill the page.
 */
export async function readOpenInbox(
  db: Db,
  userId: string,
  view: OpenInboxScope,
  now: Date,
  page: { limit: number; after?: string | null },
  find: InboxSearch = {},
): Promise<OpenInboxPage> {
  const after = page.after ?? null;
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  const text = find.text?.trim() ? find.text.trim().toLowerCase() : null;
  const asker = find.asker?.trim() || null;
  const due = find.due && (INBOX_DUE_FILTERS as readonly string[]).includes(find.due) ? find.due : null;
  const sort: InboxSort = find.sort && (INBOX_SORTS as readonly string[]).includes(find.sort) ? find.sort : "due";
  // Words anywhere in the question or who asks it (any case); who asks, exactly; when it is due.
  const kept: SQL[] = [
    ...(text === null ? [] : [hasWords(text, find.workflowsNamed ?? [])]),
    ...(asker === null ? [] : [sql`coalesce(${a.agent}, ${a.workflow}) = ${asker}::text`]),
    ...(due === null ? [] : [dueCondition(due, nowAt)]),
  ];
  const searching = kept.length > 0;
  const parts = VIEW_PARTS[view];
  const inView: SQL[] = [...(view === "overdue" ? [dueCondition("overdue", nowAt)] : []), ...kept];

  // The question the page starts after: its place in the order, if it is an open question of theirs in this view that the search keeps.
  const cursor: WalkCursor | null = after
? CURSOR_PLACE : null;
  // A cursor that names none of theirs starts the page from the beginning: the first place in the order.
  const first = sort === "newest" ? { time: "'infinity'::timestamptz", id: "'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid" } : { time: "'-infinity'::timestamptz", id: "'00000000-0000-0000-0000-000000000000'::uuid" };
  const cursorCte = after
    ? sql`, cursor as (
          select coalesce(max(${cursorFound.dueOrder}), ${sql.raw(first.time)}) as due_order,
                 coalesce(max(${cursorFound.slot.openedAt}), ${sql.raw(first.time)}) as ${bareName(slots.openedAt)},
                 coalesce(max(${cursorFound.question.slotId}::text)::uuid, ${sql.raw(first.id)}) as ${bareName(asks.slotId)},
                 coalesce(max(${cursorFound.question.askedAt}), ${sql.raw(first.time)}) as ${bareName(asks.askedAt)},
                 coalesce(max(${cursorFound.question.id}::text)::uuid, ${sql.raw(first.id)}) as ${bareName(asks.id)}
            from (select ${DUE_ORDER} as due_order, ${s.openedAt} as ${bareName(slots.openedAt)}, ${s.id} as ${bareName(asks.slotId)},
                         ${a.askedAt} as ${bareName(asks.askedAt)}, ${a.id} as ${bareName(asks.id)}
                    from ${asks} ${a} join ${slots} ${s} on ${s.id} = ${a.slotId}
                   where ${a.id} = ${after}::uuid and ${a.status} = 'open' and ${a.reason} is null and ${s.status} = 'open'
                     and (${sql.join(parts.map((part) => inPart(part, userId)), sql` or `)})
                     ${inView.length > 0 ? sql`and ${sql.join(inView, sql` and `)}` : sql``}) found
        )`
    : sql``;
  const afterConditions = cursor ? afterCursor(sort, cursor) : [];

  // A search's first page and its count come from one walk in the page's order, up to the cap: a search that keeps
  // few questions reads the person's questions once, not once for the page and again to count.
  const foundFirst = searching && !after && page.limit > 0;
  const pageWalks = parts.map((part) =>
    openWalk(part, userId, { unsnoozedAt: nowAt, where: [...inView, ...afterConditions], order: sort, limit: foundFirst ? INBOX_COUNT_CAP + 1 : page.limit + 1 }),
  );
  const pageCte =
    page.limit <= 0
      ? sql``
      : foundFirst
        ? sql`, found as materialized (${merged(pageWalks, sort, INBOX_COUNT_CAP + 1)}), page as (select * from found order by ${rowOrder(sort)} limit ${page.limit + 1})`
        : sql`, page as (${merged(pageWalks, sort, page.limit + 1)})`;
  // Each view counted up to the cap (the questions of its first cap + 1 slots), with who asks the questions counted.
  const sample = sql`sample as materialized (
          ${sql.join(
            OPEN_PARTS.map(
              (part) =>
                sql`select ${part}::text as part, ${walkedRows(part).question.slotId}, asker from ${openWalk(part, userId, { unsnoozedAt: nowAt, columns: sql`coalesce(${a.agent}, ${a.workflow}) as asker`, order: null, limit: INBOX_COUNT_CAP + 1, slotsFirst: true })} ${sql.raw(part)}`,
            ),
            sql` union all `,
          )}
        ), overdue as materialized (
          ${sql.join(
            OPEN_PARTS.map(
              (part) =>
                sql`select ${part}::text as part, ${walkedRows(`${part}_overdue`).question.slotId} from ${openWalk(part, userId, { unsnoozedAt: nowAt, where: [dueCondition("overdue", nowAt)], order: null, limit: INBOX_COUNT_CAP + 1, slotsFirst: true })} ${sql.raw(`${part}_overdue`)}`,
            ),
            sql` union all `,
          )}
        )`;
  const matching = !searching
    ? sql`null::bigint`
    : foundFirst
      ? sql`(select count(*) from found)`
      : countedUpToCap(parts.map((part) => openWalk(part, userId, { unsnoozedAt: nowAt, where: inView, order: null, limit: INBOX_COUNT_CAP + 1 })));

  const rows = await queryRows<{
    assigned: number | string;
    candidates: number | string;
    team: number | string;
    overdue: number | string;
    assigned_more: boolean;
    candidates_more: boolean;
    team_more: boolean;
    overdue_more: boolean | null;
    matching: number | string | null;
    askers: string[] | string | null;
    id: string | null;
    task_id: string;
    agent: string | null;
    workflow: string | null;
    title: string | null;
    spec_title: string | null;
    first_question: string | null;
    asked_at: string | Date;
    opened_at: string | Date;
    due_at: string | Date | null;
    assignee_id: string | null;
    claimed_by: string | null;
    claimed_by_name: string | null;
    delegated_from_name: string | null;
    view: OpenQuestionView;
  }>(
    db,
    sql`with recursive ${teamSetsCte(userId)}, ${sample}${cursorCte}${pageCte}, counts as (
          select count(*) filter (where part in ('assigned', 'claimed')) as assigned, count(*) filter (where part = 'named') as candidates,
                 count(*) filter (where part = 'team') as team,
                 -- A part whose slots reached the cap may have more questions than were counted.
                 count(*) filter (where part in ('assigned', 'claimed')) > ${INBOX_COUNT_CAP} or count(distinct ${sampled.question.slotId}) filter (where part = 'assigned') > ${INBOX_COUNT_CAP}
                   or count(distinct ${sampled.question.slotId}) filter (where part = 'claimed') > ${INBOX_COUNT_CAP} as assigned_more,
                 count(*) filter (where part = 'named') > ${INBOX_COUNT_CAP} or count(distinct ${sampled.question.slotId}) filter (where part = 'named') > ${INBOX_COUNT_CAP} as candidates_more,
                 count(*) filter (where part = 'team') > ${INBOX_COUNT_CAP} or count(distinct ${sampled.question.slotId}) filter (where part = 'team') > ${INBOX_COUNT_CAP} as team_more,
                 (select count(*) from overdue) as overdue,
                 (select count(*) > ${INBOX_COUNT_CAP} or bool_or(waits > ${INBOX_COUNT_CAP}) from (select count(distinct ${overdueRows.question.slotId}) as waits from overdue group by part) parts) as overdue_more,
                 ${matching} as matching,
                 array(select distinct asker from sample where asker is not null order by asker) as askers
            from sample where ${SERIAL_READ}
        )
        select counts.assigned, counts.candidates, counts.team, counts.overdue, counts.matching, counts.askers,
               counts.assigned_more, counts.candidates_more, counts.team_more, counts.overdue_more,
               ${
                 page.limit > 0
                   ? sql`${a.id} as id, ${a.taskId} as task_id, ${a.agent} as agent, ${a.workflow} as workflow, ${a.title} as title,
               ${a.spec} ->> 'title' as spec_title, ${a.spec} #>> '{fields,0,question}' as first_question,
               ${a.askedAt} as asked_at, ${s.openedAt} as opened_at, ${s.dueAt} as due_at, ${s.assigneeId} as assignee_id, ${s.claimedBy} as claimed_by,
               (select ${users.name} from ${users} where ${users.id} = ${s.claimedBy}) as claimed_by_name,
               (select ${users.name} from ${users} where ${users.id} = ${s.delegatedFrom}) as delegated_from_name,
               case when ${s.assigneeId} = ${userId}::uuid or ${s.claimedBy} = ${userId}::uuid then 'assigned'
                    when ${s.candidateIds} @> array[${userId}::uuid] then 'candidates' else 'team' end as view
          from counts
          left join (page join ${asks} ${a} on ${a.id} = ${pageRows.question.id} join ${slots} ${s} on ${s.id} = ${pageRows.question.slotId}) on true
         order by ${rowOrder(sort, pageRows)}`
                   : sql`null::uuid as id from counts`
               }`,
  );
  const firstRow = rows[0]!;
  const found = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      id: row.id!,
      taskId: row.task_id,
      agent: row.agent,
      workflow: row.workflow,
      title: row.title,
      specTitle: row.spec_title,
      firstQuestion: row.first_question,
      askedAt: new Date(row.asked_at),
      openedAt: new Date(row.opened_at),
      dueAt: row.due_at === null ? null : new Date(row.due_at),
      assigneeId: row.assignee_id,
      claimedBy: row.claimed_by ? { id: row.claimed_by, name: row.claimed_by_name ?? "someone" } : null,
      delegatedFrom: row.delegated_from_name,
      view: row.view,
    }));
  const shown = found.slice(0, page.limit);
  const capped = (value: number | string, more = false) => ({ count: Math.min(Number(value), INBOX_COUNT_CAP), atLeast: more || Number(value) > INBOX_COUNT_CAP });
  const counts = {
    assigned: capped(firstRow.assigned, Boolean(firstRow.assigned_more)),
    candidates: capped(firstRow.candidates, Boolean(firstRow.candidates_more)),
    team: capped(firstRow.team, Boolean(firstRow.team_more)),
    overdue: capped(firstRow.overdue, Boolean(firstRow.overdue_more)),
  };
  const everything = capped(counts.assigned.count + counts.candidates.count + counts.team.count, counts.assigned.atLeast || counts.candidates.atLeast || counts.team.atLeast);
  const kept_ = firstRow.matching === null ? (view === "everything" ? everything : counts[view]) : capped(firstRow.matching);
  return {
    counts: { assigned: counts.assigned.count, candidates: counts.candidates.count, team: counts.team.count, overdue: counts.overdue.count },
    countsAtLeast: { assigned: counts.assigned.atLeast, candidates: counts.candidates.atLeast, team: counts.team.atLeast, overdue: counts.overdue.atLeast },
    matching: kept_.count,
    matchingAtLeast: kept_.atLeast,
    askers: Array.isArray(firstRow.askers)
      ? firstRow.askers
      : (firstRow.askers ?? "").replace(/^\{|\}$/g, "").split(",").filter(Boolean).map((name) => name.replace(/^"|"$/g, "")),
    rows: shown,
    next: found.length > page.limit && shown.length > 0 ? shown.at(-1)!.id : null,
  };
}

/** An agent's conversation, in order, as the AI SDK messages it was stored as. */
export async function listConversationMessages(db: Db, conversationId: string): Promise<ModelMessage[]> {
  const rows = await queryRows<{ message: ModelMessage }>(
    db,
    sql`select ${conversationMessages.message} as message from ${conversationMessages} where ${conversationMessages.conversationId} = ${conversationId} order by ${conversationMessages.id}`,
  );
  return rows.map((row) => row.message);
}

/**
 * Whether `userId` has a part in a task's questions: asked (assignee or candidate) or answered one.
 * Such a person may watch that task's run carry on after they answered.
 */
export async function hasPartInTask(db: Db, taskId: string, userId: string): Promise<boolean> {
  const rows = await queryRows<{ yes: boolean }>(
    db,
    sql`select exists (
          select 1 from ${asks} ${a} left join ${slots} ${s} on ${s.id} = ${a.slotId}
           where ${a.taskId} = ${taskId}
             and (${a.answeredBy} = ${userId} or ${slotIsFor("s.", userId)})
        ) as yes`,
  );
  return Boolean(rows[0]?.yes);
}

/** The run events `findReassignmentAway` reads, as its statement names them. */
const e = alias(runEvents, "e");

/**
 * When a question was taken away from `userId` by a reassignment: who has it now and since when, or
 * undefined (it was never theirs, or it still is).
 */
export async function findReassignmentAway(db: Db, questionId: string, userId: string): Promise<{ toName: string | null; at: Date } | undefined> {
  const rows = await queryRows<{ to_name: string | null; at: string | Date }>(
    db,
    sql`select (select ${users.name} from ${users} where ${users.id} = ${s.assigneeId}) as to_name, ${e.at} as at
          from ${asks} ${a} join ${slots} ${s} on ${s.id} = ${a.slotId}
          join ${runEvents} ${e} on ${e.taskId} = ${a.taskId} and ${e.kind} = 'slot-reassigned'
               and ${e.data} ->> 'slotId' = ${s.id}::text and ${e.data} ->> 'from' = ${userId}
         where ${a.id} = ${questionId}::uuid
         order by ${e.id} desc limit 1`,
  );
  const row = rows[0];
  return row ? { toName: row.to_name, at: new Date(row.at) } : undefined;
}
