import type { ModelMessage } from "ai";
import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";
import type { QuestionSpec } from "../types/question-spec";
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
    with: sql`with mine as (
          (select id from asks where answered_by = ${userId} and answered_at is not null order by answered_at desc limit ${limit})
          union
          select id from asks where answered_by = ${userId} and answered_at is null
          union
          (select a.id from (select id from slots s where finished_by = ${userId} and exists (select 1 from asks where slot_id = s.id)
                               order by finished_at desc limit ${limit}) s
             join asks a on a.slot_id = s.id)
        )`,
    from: sql`from mine join asks a on a.id = mine.id left join slots s on s.id = a.slot_id
         where a.answered_by = ${userId} or s.finished_by = ${userId}`,
  };
}

/** The questions `userId` answered (or whose slot they finished), newest first; at most `limit`. */
export async function listAnsweredBy(db: Db, userId: string, limit = 50): Promise<AnsweredQuestionRow[]> {
  const answered = answeredBy(userId, limit);
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
        select a.id, a.task_id, a.agent, a.workflow, a.title, a.spec #>> '{fields,0,question}' as question, a.status, a.reason,
               a.asked_at, coalesce(a.answered_at, s.finished_at) as answered_at, s.wait_ms, a.spec, a.answer
          ${answered.from}
         order by coalesce(a.answered_at, s.finished_at) desc nulls last
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
}

/** A page of someone's open questions, and how many there are in each view. */
export interface OpenInboxPage {
  counts: Record<OpenInboxView, number>;
  /** How many of the view's questions the search keeps; the view's count when nothing is searched for. */
  matching: number;
  /** Who asks the person's open questions (an agent's name, else the flow's), each once, for a filter. */
  askers: string[];
  rows: OpenQuestionRow[];
  /** The last question shown, to read the next page after; null on the last page. */
  next: string | null;
}

/** When a question is due, as the inbox filters it: past due, due within a day or a week from now, or with no deadline. */
export const INBOX_DUE_FILTERS = ["overdue", "day", "week", "none"] as const;
export type InboxDue = (typeof INBOX_DUE_FILTERS)[number];

/** How a page of open questions is ordered: soonest due first (no deadline last), or by when they were asked. */
export const INBOX_SORTS = ["due", "newest", "oldest"] as const;
export type InboxSort = (typeof INBOX_SORTS)[number];

/** What a person looks for in their open questions: words in the question, who asks, when it is due; and the order. */
export interface InboxSearch {
  text?: string | null;
  asker?: string | null;
  /** Only questions due so (null: any). */
  due?: InboxDue | null;
  /** Default `due`. */
  sort?: InboxSort;
}

const DUE_CONDITION: Record<InboxDue, SQL> = {
  overdue: sql`due_at is not null and due_at <= now_at`,
  day: sql`due_at > now_at and due_at <= now_at + interval '1 day'`,
  week: sql`due_at > now_at and due_at <= now_at + interval '7 days'`,
  none: sql`due_at is null`,
};

/** Each order: how rows of `mine` (or the page, through `prefix`) are ordered, and how rows after a cursor are kept. */
function ordering(sort: InboxSort, prefix = ""): { order: SQL; after: SQL } {
  const col = (name: string) => sql.raw(`${prefix}${name}`);
  switch (sort) {
    case "newest":
      return { order: sql`${col("asked_at")} desc, ${col("id")} desc`, after: sql`(asked_at, id) < (select asked_at, id from cursor)` };
    case "oldest":
      return { order: sql`${col("asked_at")}, ${col("id")}`, after: sql`(asked_at, id) > (select asked_at, id from cursor)` };
    default:
      return { order: sql`${col("due_order")}, ${col("asked_at")}, ${col("id")}`, after: sql`(due_order, asked_at, id) > (select due_order, asked_at, id from cursor)` };
  }
}

const VIEW_CONDITION: Record<OpenInboxView, SQL> = {
  assigned: sql`assigned`,
  candidates: sql`not assigned and named`,
  team: sql`not assigned and not named`,
  overdue: sql`due_at is not null and due_at <= now_at`,
};

/**
 * The questions `userId` may answer now — open, with an open slot that names them as assignee or
 * candidate — counted by view, and one page of a view: soonest due first (no deadline last), then
 * oldest asked (or, by `find.sort`, newest or oldest asked first), starting after the question `after`
 * (when it is one of theirs in that order; else from the start). `find` keeps only questions with its
 * words, asked by its asker, due as it says (`matching` counts them). One statement: the person's open slots come from the assignee and candidate indexes,
 * their questions from the index of open questions by slot; only the page's rows are read in full.
 */
export async function readOpenInbox(
  db: Db,
  userId: string,
  view: OpenInboxView,
  now: Date,
  page: { limit: number; after?: string | null },
  find: InboxSearch = {},
): Promise<OpenInboxPage> {
  const after = page.after ?? null;
  const text = find.text?.trim() ? find.text.trim().toLowerCase() : null;
  const asker = find.asker?.trim() || null;
  // Words anywhere in the question's title or text (any case); who asks, exactly.
  const due = find.due && Object.hasOwn(DUE_CONDITION, find.due) ? DUE_CONDITION[find.due] : undefined;
  const kept = sql`(${text}::text is null or position(${text}::text in lower(coalesce(title, '') || ' ' || coalesce(spec_title, '') || ' ' || coalesce(first_question, ''))) > 0)
    and (${asker}::text is null or asker = ${asker}::text)${due ? sql` and (${due})` : sql``}`;
  const sort: InboxSort = find.sort && (INBOX_SORTS as readonly string[]).includes(find.sort) ? find.sort : "due";
  const order = ordering(sort);
  const rows = await queryRows<{
    matching: number | string;
    askers: string[] | string | null;
    assigned: number | string;
    candidates: number | string;
    team: number | string;
    overdue: number | string;
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
  }>(
    db,
    sql`with mine as materialized (
          select a.id, a.asked_at, coalesce(s.due_at, 'infinity') as due_order, s.due_at, s.opened_at, s.assignee_id,
                 s.claimed_by, s.delegated_from, coalesce(a.agent, a.workflow) as asker,
                 a.title, a.spec ->> 'title' as spec_title, a.spec #>> '{fields,0,question}' as first_question,
                 s.assignee_id is not distinct from ${userId}::uuid as assigned, s.candidate_ids @> array[${userId}::uuid] as named,
                 ${now.toISOString()}::timestamptz as now_at
            from slots s join asks a on a.slot_id = s.id
           where s.status = 'open' and ${slotIsFor("s.", userId)}
             and a.status = 'open' and a.reason is null
        ), counts as (
          select count(*) filter (where assigned) as assigned, count(*) filter (where not assigned and named) as candidates,
                 count(*) filter (where not assigned and not named) as team, count(*) filter (where due_at <= now_at) as overdue,
                 count(*) filter (where ${VIEW_CONDITION[view]} and ${kept}) as matching,
                 array(select distinct m.asker from mine m where m.asker is not null order by m.asker) as askers
            from mine
        ), cursor as (
          select due_order, asked_at, id from mine where id = ${after}::uuid and ${VIEW_CONDITION[view]} and ${kept}
        ), page as (
          select id, due_order, asked_at, due_at, opened_at, assignee_id, claimed_by, delegated_from from mine
           where ${VIEW_CONDITION[view]} and ${kept}
             and (not exists (select 1 from cursor) or ${order.after})
           order by ${order.order}
           limit ${page.limit + 1}
        )
        select counts.assigned, counts.candidates, counts.team, counts.overdue, counts.matching, counts.askers,
               a.id, a.task_id, a.agent, a.workflow,
               a.title, a.spec ->> 'title' as spec_title, a.spec #>> '{fields,0,question}' as first_question,
               a.asked_at, page.opened_at, page.due_at, page.assignee_id, page.claimed_by,
               (select name from users where users.id = page.claimed_by) as claimed_by_name,
               (select name from users where users.id = page.delegated_from) as delegated_from_name
          from counts
          left join (page join asks a on a.id = page.id) on true
         order by ${ordering(sort, "page.").order}`,
  );
  const first = rows[0]!;
  const found = rows.filter((row) => row.id !== null).map((row) => ({
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
  }));
  const shown = found.slice(0, page.limit);
  return {
    counts: { assigned: Number(first.assigned), candidates: Number(first.candidates), team: Number(first.team), overdue: Number(first.overdue) },
    matching: Number(first.matching),
    askers: Array.isArray(first.askers) ? first.askers : (first.askers ?? "").replace(/^\{|\}$/g, "").split(",").filter(Boolean).map((name) => name.replace(/^"|"$/g, "")),
    rows: shown,
    next: found.length > page.limit && shown.length > 0 ? shown.at(-1)!.id : null,
  };
}

/** An agent's conversation, in order, as the AI SDK messages it was stored as. */
export async function listConversationMessages(db: Db, conversationId: string): Promise<ModelMessage[]> {
  const rows = await queryRows<{ message: ModelMessage }>(
    db,
    sql`select message from conversation_messages where conversation_id = ${conversationId} order by id`,
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
          select 1 from asks a left join slots s on s.id = a.slot_id
           where a.task_id = ${taskId}
             and (a.answered_by = ${userId} or ${slotIsFor("s.", userId)})
        ) as yes`,
  );
  return Boolean(rows[0]?.yes);
}

/**
 * When a question was taken away from `userId` by a reassignment: who has it now and since when, or
 * undefined (it was never theirs, or it still is).
 */
export async function findReassignmentAway(db: Db, questionId: string, userId: string): Promise<{ toName: string | null; at: Date } | undefined> {
  const rows = await queryRows<{ to_name: string | null; at: string | Date }>(
    db,
    sql`select (select name from users where users.id = s.assignee_id) as to_name, e.at
          from asks a join slots s on s.id = a.slot_id
          join run_events e on e.task_id = a.task_id and e.kind = 'slot-reassigned'
               and e.data ->> 'slotId' = s.id::text and e.data ->> 'from' = ${userId}
         where a.id = ${questionId}::uuid
         order by e.id desc limit 1`,
  );
  const row = rows[0];
  return row ? { toName: row.to_name, at: new Date(row.at) } : undefined;
}
