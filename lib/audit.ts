import type { Db } from "@/db/client";
import { type AuditCategory, type AuditFilter, type AuditRow, listAuditEvents } from "@/db/queries/audit-events";
import { namesOf } from "@/db/queries/runs";
import { AUDIT_CATEGORIES } from "@/db/schema";
import { csvCell } from "@/lib/sla-export";
import { describePersonChange } from "@/lib/person-changes";
import { type AssigneeChoice, resolveAssigneeFilter } from "@/lib/sla-outstanding";

export { AUDIT_CATEGORIES, type AuditCategory };

/** The filter's words for each category. */
export const AUDIT_CATEGORY_LABELS: Record<AuditCategory, string> = {
  answers: "Answers and declines",
  questions: "Questions taken, given back, reassigned",
  runs: "Runs started, cancelled, retried; asks by agent keys",
  people: "People and groups",
  keys: "API keys made, used, revoked",
};

/** Lines per page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

/** The audit log's filter as the page's form sends it (every part optional, as typed). */
export interface AuditQuery {
  category: AuditCategory | null;
  /** Whose actions: a person's email, part of their name, or their id (from a link). */
  who: string;
  /** Whole days, `YYYY-MM-DD`, in UTC; `until` is included. */
  from: string;
  until: string;
}

/**
 * A line of the log in words, for the page and the CSV: "<actor> <verb> <subject> — <detail>", e.g.
 * "Ada Admin reassigned “Approve the refund?” — from Sam Rivera to Lee Park".
 */
export interface AuditLine {
  id: number;
  at: Date;
  action: string;
  /** Who acted: a person, an agent key, or Parley itself (an escalation, an expiry). */
  actor: { kind: "person" | "key" | "parley"; name: string; href: string | null };
  verb: string;
  /** What it was done to, with where to see it (a run, a person, a group, a key). */
  subject: { label: string; href: string | null } | null;
  detail: string | null;
  taskId: string | null;
  questionId: string | null;
  personId: string | null;
  groupId: string | null;
  apiKeyId: string | null;
}

/** A day as a date input sends it, in the years 1900 to 2199 (a log holds nothing outside them; far-off years have no ISO form the database reads). */
const DAY = /^(19|20|21)\d{2}-\d{2}-\d{2}$/;

function day(value: string): Date | null {
  if (!DAY.test(value)) return null;
  const moment = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(moment.getTime()) || moment.toISOString().slice(0, 10) !== value ? null : moment;
}

function single(value: string | string[] | undefined): string {
  // No NUL: the database refuses it in any text.
  return ((Array.isArray(value) ? value[0] : value) ?? "").replaceAll("\u0000", "").trim().slice(0, 320);
}

/** The filter in a page's (or the export's) query string; an unknown category is no category. */
export function parseAuditQuery(params: Record<string, string | string[] | undefined>): AuditQuery {
  const category = single(params.category);
  return {
    category: (AUDIT_CATEGORIES as readonly string[]).includes(category) ? (category as AuditCategory) : null,
    who: single(params.who),
    from: single(params.from),
    until: single(params.until),
  };
}

/** The query string that asks for this filter (and a page of it), for links. */
export function auditSearch(query: AuditQuery, extra: Record<string, string> = {}): string {
  const entries = Object.entries({ category: query.category ?? "", who: query.who, from: query.from, until: query.until, ...extra }).filter(
    (entry): entry is [string, string] => Boolean(entry[1]),
  );
  const search = new URLSearchParams(entries).toString();
  return search ? `?${search}` : "";
}

/**
 * The filter the database reads, with the person it is narrowed to; or what is wrong with the one
 * asked for, in the admin's words, with the people the "who" words could mean.
 */
export type ResolvedAuditFilter =
  | { ok: true; filter: AuditFilter; who: AssigneeChoice | null }
  | { ok: false; problem: string; matches: AssigneeChoice[] };

/** Turns the typed filter into one the database reads: a person found by email, name or id; days as moments. */
export async function resolveAuditQuery(db: Db, query: AuditQuery): Promise<ResolvedAuditFilter> {
  const filter: AuditFilter = {};
  if (query.category) filter.category = query.category;
  const who = await resolveAssigneeFilter(db, query.who);
  if (query.who) {
    if (!who.chosen) {
      return {
        ok: false,
        problem: who.matches.length === 0 ? `Nobody’s email or name matches “${query.who}”.` : `Several people match “${query.who}”: pick one.`,
        matches: who.matches,
      };
    }
    filter.actorId = who.chosen.id;
  }
  if (query.from) {
    const from = day(query.from);
    if (!from) return { ok: false, problem: `“${query.from}” is not a day: pick one, or write it as 2026-12-31.`, matches: [] };
    filter.from = from;
  }
  if (query.until) {
    const until = day(query.until);
    if (!until) return { ok: false, problem: `“${query.until}” is not a day: pick one, or write it as 2026-12-31.`, matches: [] };
    filter.until = new Date(until.getTime() + 24 * 60 * 60 * 1000);
  }
  if (filter.from && filter.until && filter.from >= filter.until) return { ok: false, problem: "The first day comes after the last: swap them.", matches: [] };
  return { ok: true, filter, who: who.chosen };
}

function text(value: unknown): string | null {
  return typeof value === "string" && value ? value : null;
}

function count(value: unknown, one: string, many: string): string | null {
  if (typeof value !== "number" || value <= 0) return null;
  return value === 1 ? `1 ${one}` : `${value} ${many}`;
}

/**
 * A line in words. `names` has the people a line names by id (a reassignment's from and to);
 * `workflowLabel` gives a workflow's name as people read it.
 */
function describe(row: AuditRow, names: ReadonlyMap<string, string>, workflowLabel: (name: string) => string): AuditLine {
  const detail = row.detail;
  const personChange = row.action.startsWith("person-") ? row.action.slice("person-".length) : null;
  // A password set through an invite is the person's own doing (the change names nobody else).
  const actorId = row.actorId ?? (personChange === "password-set" ? row.personId : null);
  const actor: AuditLine["actor"] = actorId
    ? { kind: "person", name: (actorId === row.personId && !row.actorId ? row.personName : row.actorName) ?? "someone since removed", href: `/admin/people/${actorId}` }
    : row.actorKeyId
      ? { kind: "key", name: `The key “${row.actorKeyName ?? text(detail.name) ?? "(gone)"}”`, href: "/admin/api-keys" }
      : { kind: "parley", name: "Parley", href: null };
  const run = row.taskId ? { label: `a run of ${row.workflow ? workflowLabel(row.workflow) : "a workflow"}`, href: `/tasks/${row.taskId}` } : null;
  const title = row.questionTitle ?? text(detail.title);
  const question = row.taskId ? { label: title ? `“${title}”` : "a question", href: `/tasks/${row.taskId}` } : null;
  const person = row.personId ? { label: row.personName ?? "someone since removed", href: `/admin/people/${row.personId}` } : null;
  const group = (name: string | null) => ({ label: `the group ${name ?? "(no name)"}`, href: row.groupId ? `/admin/groups/${row.groupId}` : null });
  const key = { label: `“${row.apiKeyName ?? text(detail.name) ?? "(gone)"}”`, href: detail.kind === "personal" ? null : "/admin/api-keys" };
  const keyNoun = detail.kind === "personal" ? "the personal token" : "the agent key";
  const nameOf = (value: unknown) => (typeof value === "string" ? (names.get(value) ?? "someone") : null);
  const line = (verb: string, subject: AuditLine["subject"], more: string | null = null): Pick<AuditLine, "verb" | "subject" | "detail"> => ({ verb, subject, detail: more });
  let words: Pick<AuditLine, "verb" | "subject" | "detail">;
  switch (row.action) {
    case "answered":
      words = line("answered", question);
      break;
    case "declined":
      words = line("declined", question, text(detail.note) ? `told the asker “${text(detail.note)}”` : null);
      break;
    case "claimed":
      words = line("took", question);
      break;
    case "released":
      words = line("gave back", question);
      break;
    case "reassigned": {
      const from = nameOf(detail.from);
      words = line("reassigned", question, `${from ? `from ${from} ` : ""}to ${nameOf(detail.to) ?? "someone"}`);
      break;
    }
    case "asked":
      words = line("asked", question);
      break;
    case "run-started":
      words = line("started", run);
      break;
    case "cancelled":
      words = line("cancelled", run, count(detail.withdrawn, "open question withdrawn", "open questions withdrawn"));
      break;
    case "retried":
      words = line("retried", run);
      break;
    case "group-created":
      words = line("made", group(text(detail.name)));
      break;
    case "group-renamed":
      words = line("renamed", group(text(detail.from)), `to ${text(detail.to) ?? "(no name)"}`);
      break;
    case "group-deleted":
      words = line("deleted", { label: `the group ${text(detail.name) ?? "(no name)"}`, href: null }, count(detail.members, "member", "members"));
      break;
    case "key-created":
      words = line(`made ${keyNoun}`, key);
      break;
    case "key-used":
      // An agent key acts as itself ("The key “Release bot” was used"); a personal token, as its person.
      words = row.actorKeyId ? line("was used", null) : line(`used ${keyNoun}`, key);
      break;
    case "key-revoked":
      words = line(`revoked ${keyNoun}`, key, text(detail.because) === "deactivated" ? "its owner was deactivated" : null);
      break;
    default:
      words = personChange ? line("changed", person, describePersonChange({ kind: personChange, data: detail })) : line(row.action, null);
  }
  return {
    id: row.id,
    at: row.at,
    action: row.action,
    actor,
    ...words,
    taskId: row.taskId,
    questionId: row.questionId,
    personId: row.personId,
    groupId: row.groupId,
    apiKeyId: row.apiKeyId,
  };
}

async function describeAll(db: Db, rows: readonly AuditRow[], workflowLabel: (name: string) => string): Promise<AuditLine[]> {
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.action !== "reassigned") continue;
    for (const value of [row.detail.from, row.detail.to]) if (typeof value === "string") ids.add(value);
  }
  const names = ids.size > 0 ? await namesOf(db, [...ids]) : new Map<string, string>();
  return rows.map((row) => describe(row, names, workflowLabel));
}

/** A page of the audit log, newest first, with where the next page starts (null: this is the last). */
export interface AuditPage {
  lines: AuditLine[];
  /** The id of the line after which the next page starts. */
  next: number | null;
}

/** One page of the log: `before` (a line's id from the previous page) continues after that line. */
export async function loadAuditPage(
  db: Db,
  filter: AuditFilter,
  options: { before?: number; workflowLabel: (name: string) => string; pageSize?: number },
): Promise<AuditPage> {
  const pageSize = options.pageSize ?? AUDIT_PAGE_SIZE;
  const rows = await listAuditEvents(db, { filter, ...(options.before ? { before: options.before } : {}), limit: pageSize + 1 });
  const lines = await describeAll(db, rows.slice(0, pageSize), options.workflowLabel);
  return { lines, next: rows.length > pageSize ? lines[lines.length - 1]!.id : null };
}

/** The columns of the audit log's CSV, in order. */
export const AUDIT_CSV_COLUMNS = ["at", "actor_kind", "actor", "action", "verb", "subject", "detail", "task_id", "question_id", "person_id", "group_id", "api_key_id", "line_id"] as const;

/**
 * Every line matching `filter` as CSV, newest first, a page of the log at a time (so a long log is
 * never held at once): a header, then one row per line.
 */
export async function* auditCsv(db: Db, filter: AuditFilter, workflowLabel: (name: string) => string): AsyncGenerator<string> {
  yield `${AUDIT_CSV_COLUMNS.join(",")}\r\n`;
  let before: number | undefined;
  for (;;) {
    const page = await loadAuditPage(db, filter, { ...(before ? { before } : {}), workflowLabel, pageSize: 500 });
    for (const line of page.lines) {
      yield `${[
        line.at.toISOString(),
        line.actor.kind,
        line.actor.name,
        line.action,
        line.verb,
        line.subject?.label ?? null,
        line.detail,
        line.taskId,
        line.questionId,
        line.personId,
        line.groupId,
        line.apiKeyId,
        line.id,
      ]
        .map(csvCell)
        .join(",")}\r\n`;
    }
    if (page.next === null) return;
    before = page.next;
  }
}
