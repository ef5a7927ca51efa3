import type { Db } from "@/db/client";
import { agentWords } from "@/lib/plain-words";
import {
  type AnsweredQuestionRow,
  countAnsweredBy,
  INBOX_COUNT_CAP,
  INBOX_DUE_FILTERS,
  INBOX_SORTS,
  type InboxDue,
  type InboxSort,
  listAnsweredBy,
  type OpenQuestionView,
  readOpenInbox,
} from "@/db/queries/inbox";
import { countSnoozedBy, listSnoozedBy, type SnoozedQuestionRow } from "@/db/queries/question-snoozes";
import { markInboxSeen } from "@/db/queries/person-notifications";
import type { QuestionRow } from "@/db/queries/runtime-questions";
import { isUuid } from "@/lib/ids";
import { answerLine, describeAnswer } from "@/lib/questions";
import type { Registry, TaskSubject } from "@/lib/registry";
import { getRegistry } from "@/lib/registry/configured";

/** The inbox's views. */
export const INBOX_VIEWS = ["assigned", "candidates", "team", "overdue", "snoozed", "answered"] as const;
export type InboxView = (typeof INBOX_VIEWS)[number];

/** Each view's name, as its tab, the palette and a search's rows say it. */
export const INBOX_VIEW_LABELS: Readonly<Record<InboxView, string>> = {
  assigned: "Assigned to me",
  candidates: "Shared with me",
  team: "My team",
  overdue: "Overdue",
  snoozed: "Snoozed",
  answered: "Answered by me",
};

/** The views that list something other than a page of open questions: what was answered, what is snoozed. */
export function isListView(view: InboxView): view is "snoozed" | "answered" {
  return view === "snoozed" || view === "answered";
}

export function parseInboxView(value: unknown): InboxView {
  return INBOX_VIEWS.find((view) => view === value) ?? "assigned";
}

export { INBOX_COUNT_CAP, INBOX_DUE_FILTERS, INBOX_SORTS, type InboxDue, type InboxSort };

/** A count as a tab shows it: "57", or "1,000+" past what the inbox counts ({@link INBOX_COUNT_CAP}). */
export function inboxCountWords(count: number, atLeast: boolean): string {
  return `${count.toLocaleString("en-US")}${atLeast ? "+" : ""}`;
}

/** Each due filter in words, for the filter's choices (none chosen: any deadline). */
export const INBOX_DUE_LABELS: Readonly<Record<InboxDue, string>> = {
  overdue: "Overdue",
  day: "Due within a day",
  week: "Due within a week",
  none: "No deadline",
};

/** Each order in words. */
export const INBOX_SORT_LABELS: Readonly<Record<InboxSort, string>> = {
  due: "Soonest due first",
  newest: "Newest first",
  oldest: "Oldest first",
};

/**
 * A due filter and an order from the page's query: a known value is taken; nothing, or an empty one,
 * is the default (any deadline, soonest due first); anything else is the default too, with the words
 * the page shows to say it was not understood.
 */
export function parseInboxFilters(query: { due?: unknown; sort?: unknown }): { due: InboxDue | null; sort: InboxSort; notUnderstood: string[] } {
  const notUnderstood: string[] = [];
  const pick = <T extends string>(value: unknown, known: readonly T[], what: string, fallback: string): T | null => {
    if (value === undefined || value === "") return null;
    const found = typeof value === "string" ? known.find((each) => each === value) : undefined;
    if (!found) notUnderstood.push(`${what} “${shortValue(value)}” is not one we know, so the list shows ${fallback}.`);
    return found ?? null;
  };
  const due = pick(query.due, INBOX_DUE_FILTERS, "The due filter", "every deadline");
  const sort = pick(query.sort, INBOX_SORTS, "The order", "the soonest due first") ?? "due";
  return { due, sort, notUnderstood };
}

/** A query value as a short string, for saying it was not understood (never a page of it). */
function shortValue(value: unknown): string {
  const text = Array.isArray(value) ? value.join(",") : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Who is asking: an agent, a flow asking a person for a whole answer, or a caller of the API (by its key's name). */
export interface Asker {
  kind: "agent" | "workflow" | "api";
  /** As the asker calls itself: the agent's or the key's name, or the flow's label (the API gives this). */
  name: string;
  /** As screens say it: an agent's name in words ("Release checker"), else the name. */
  label: string;
}

/** One open question in someone's inbox. */
export interface InboxRow {
  id: string;
  /** The question in the asker's own words: the agent's text, or the questionnaire's title. */
  headline: string;
  asker: Asker;
  subject: TaskSubject | undefined;
  openedAt: Date;
  dueAt: Date | null;
  assignedToMe: boolean;
  /** The member of the team who took it, while they hold it. */
  claimedBy: { id: string; name: string } | null;
  /** The person it was meant for, who is away and named this person their delegate (null for anyone else it is put to). */
  delegatedFrom: string | null;
  /** Put to them since they last looked at their inbox (always, the first time they look). */
  isNew: boolean;
  /** The view it is in (what a search of everything says of each question it finds). */
  view: OpenQuestionView;
}

/** The longest text looked for: enough for any words of a question, little for a query to carry. */
const SEARCH_LENGTH = 200;

/** A search term from the page's query: one string, trimmed and bounded; null when there is none. */
function searchText(value: unknown): string | null {
  const text = typeof value === "string" ? value.trim().slice(0, SEARCH_LENGTH) : "";
  return text === "" ? null : text;
}

/** How many open questions a page of the inbox shows. */
export const INBOX_PAGE_SIZE = 50;
/** How many answered questions "Answered by me" lists (and counts), newest first. */
const ANSWERED_LISTED = 50;
/** How many of what they answered a search of everything lists, newest first. */
export const ANSWERED_FOUND = 20;

/** What the inbox page shows. */
export interface Inbox {
  view: InboxView;
  /** One page of the view's open questions, soonest due first. */
  rows: InboxRow[];
  /**
   * Whether words were looked for: then the page holds what has them in every view — open questions
   * (each saying its view) and, in `answered`, what they answered — not only the view's.
   */
  everywhere: boolean;
  /** What they answered, newest first: read in the "answered" view (the others count it), and by a search of everything. */
  answered: (AnsweredQuestionRow & {
    asker: Asker;
    subject: TaskSubject | undefined;
    /** What was answered, in a line ("Bank transfer · Urgent?: No"); null when it closed with nothing. */
    answerLine: string | null;
  })[];
  /** The open questions they snoozed, soonest back first: read in the "snoozed" view and by a search of everything (the others count them). */
  snoozed: (SnoozedQuestionRow & { headline: string; asker: Asker; subject: TaskSubject | undefined })[];
  /**
   * Every open question in each view (not only this page's), up to {@link INBOX_COUNT_CAP}; "answered"
   * counts what is listed, "snoozed" what they snoozed.
   */
  counts: Record<InboxView, number>;
  /** The views with more open questions than the inbox counts: their count is the cap, shown as "1,000+". */
  countsAtLeast: Record<InboxView, boolean>;
  /** What is being looked for (words, who asks, when due) and the order, as understood; nothing when the whole view is shown. */
  search: { text: string | null; asker: string | null; due: InboxDue | null; sort: InboxSort };
  /** Query values that were not understood, each in a sentence saying what is shown instead. */
  notUnderstood: string[];
  /** How many of the view's open questions the search keeps (up to the cap). */
  matching: number;
  /** Whether the search keeps more than the cap. */
  matchingAtLeast: boolean;
  /** Who asks the person's open questions, for the filter. */
  askers: string[];
  /** The question this page starts after, when it is not the first page. */
  after: string | null;
  /** The last question on this page, when there is a next page to read after it. */
  next: string | null;
}

/**
 * Records that the person is looking at their inbox now, and returns when they had looked before
 * (null: never): the questions put to them since then show as new on this look.
 */
export function lookAtInbox(db: Db, userId: string, now: Date): Promise<Date | null> {
  return markInboxSeen(db, userId, now);
}

/** The registered flows whose name, as people know it (its label), has `text` in it, any case. */
function workflowsNamedWith(text: string, registry: Partial<Pick<Registry, "entries">>): string[] {
  const words = text.toLowerCase();
  return (registry.entries ?? []).filter((entry) => entry.label.toLowerCase().includes(words)).map((entry) => entry.workflow.name);
}

/** The question in the asker's own words. */
export function headlineOf(question: Pick<QuestionRow, "title" | "spec">): string {
  return headlineFrom({ title: question.title, specTitle: question.spec.title ?? null, firstQuestion: question.spec.fields[0]?.question ?? null });
}

/** {@link headlineOf} from the parts of the question it is made of, for rows read without their spec. */
function headlineFrom(parts: { title: string | null; specTitle: string | null; firstQuestion: string | null }): string {
  return parts.title ?? parts.specTitle ?? parts.firstQuestion ?? "A question";
}

/**
 * Who asked a question: its agent, the app's own words for who asks (an API key's name), or its flow
 * — by the name people know it by (its registry label, "Expense review"), never its code name where
 * the registry has a label.
 */
export function askerOf(question: { agent: string | null; workflow: string | null }, subject?: Pick<TaskSubject, "askedBy">, registry?: Partial<Pick<Registry, "entry">>): Asker {
  if (question.agent) return { kind: "agent", name: question.agent, label: agentWords(question.agent) };
  if (subject?.askedBy) return { kind: "api", name: subject.askedBy, label: subject.askedBy };
  const label = question.workflow ? registry?.entry?.(question.workflow)?.label : undefined;
  const name = label ?? question.workflow ?? "A flow";
  return { kind: "workflow", name, label: name };
}


/**
 * The signed-in person's inbox: every open question they may answer counted by view, one page of the
 * chosen view (soonest due first, after the question `after` when given), and what they answered
 * before. Only the rows shown are read in full; each is described by its workflow's registry entry.
 */
export async function loadInbox(
  db: Db,
  userId: string,
  view: InboxView,
  now: Date,
  options: {
    after?: string | null;
    pageSize?: number;
    registry?: Pick<Registry, "describeTasks"> & Partial<Pick<Registry, "entry" | "entries">>;
    /** When they had last looked before this look (null: never): what opened after it is new. */
    seenBefore?: Date | null;
    /** Words to look for in the questions, who asks them, when they are due and the order (as the page's query has them). */
    search?: { text?: unknown; asker?: unknown; due?: unknown; sort?: unknown };
  } = {},
): Promise<Inbox> {
  const after = isUuid(options.after) ? options.after : null;
  const filters = parseInboxFilters({ due: options.search?.due, sort: options.search?.sort });
  const search = { text: searchText(options.search?.text), asker: searchText(options.search?.asker), due: filters.due, sort: filters.sort };
  const registry = options.registry ?? getRegistry();
  // Words are looked for in everything the person may see, whichever view they were typed in.
  const everywhere = search.text !== null;
  const find = { ...search, workflowsNamed: everywhere ? workflowsNamedWith(search.text!, registry) : [] };
  const listed = isListView(view) && !everywhere;
  const openPage = { limit: listed ? 0 : (options.pageSize ?? INBOX_PAGE_SIZE), after };
  // Only the view shown is read in full; the others are counted.
  const [open, answered, answeredCount, snoozed] = await Promise.all([
    readOpenInbox(db, userId, everywhere ? "everything" : isListView(view) ? "assigned" : view, now, openPage, find),
    everywhere ? (after ? [] : listAnsweredBy(db, userId, ANSWERED_FOUND, { text: search.text!, workflowsNamed: find.workflowsNamed })) : view === "answered" ? listAnsweredBy(db, userId, ANSWERED_LISTED) : [],
    view === "answered" && !everywhere ? undefined : countAnsweredBy(db, userId, ANSWERED_LISTED),
    // The Snoozed view reads its rows (and their count); a search of everything reads the ones with its
    // words (and counts them all for the tab); every other view only counts them.
    view === "snoozed" && !everywhere
      ? listSnoozedBy(db, userId, now)
      : everywhere && !after
        ? Promise.all([countSnoozedBy(db, userId, now), listSnoozedBy(db, userId, now, { text: search.text!, workflowsNamed: find.workflowsNamed })]).then(([count, found]) => ({ count, rows: found.rows }))
        : countSnoozedBy(db, userId, now).then((count) => ({ count, rows: [] })),
  ]);
  const snoozedShown = snoozed.rows;
  const subjects = await registry.describeTasks(db, [
    ...open.rows.map((question) => question.taskId),
    ...answered.map((question) => question.taskId),
    ...snoozedShown.map((question) => question.taskId),
  ]);
  const rows: InboxRow[] = open.rows.map((question) => ({
    id: question.id,
    headline: headlineFrom(question),
    asker: askerOf(question, subjects.get(question.taskId), registry),
    subject: subjects.get(question.taskId),
    openedAt: question.openedAt,
    dueAt: question.dueAt,
    assignedToMe: question.assigneeId === userId,
    claimedBy: question.claimedBy,
    // The delegate is the one it went to in the away person's place: anyone else it is put to is told nothing of it.
    delegatedFrom: question.assigneeId === userId ? question.delegatedFrom : null,
    isNew: options.seenBefore === undefined ? false : options.seenBefore === null || question.openedAt > options.seenBefore,
    view: question.view,
  }));
  return {
    view,
    everywhere,
    rows,
    answered: answered.map((question) => ({
      ...question,
      asker: askerOf(question, subjects.get(question.taskId), registry),
      subject: subjects.get(question.taskId),
      answerLine: answerLine(describeAnswer(question.spec, question.answer)),
    })),
    snoozed: snoozedShown.map((question) => ({
      ...question,
      headline: headlineFrom(question),
      asker: askerOf(question, subjects.get(question.taskId), registry),
      subject: subjects.get(question.taskId),
    })),
    counts: { ...open.counts, answered: answeredCount ?? answered.length, snoozed: snoozed.count },
    countsAtLeast: { ...open.countsAtLeast, answered: false, snoozed: false },
    search,
    notUnderstood: filters.notUnderstood,
    matching: open.matching,
    matchingAtLeast: open.matchingAtLeast,
    askers: open.askers,
    after: listed ? null : after,
    next: open.next,
  };
}

