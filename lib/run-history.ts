import type { Db } from "@/db/client";
import { countRunEventsBefore, findLatestRunEvent, listAnswersOfQuestions, listRunEventsBefore, listTurnHandoffs } from "@/db/queries/runtime-events";
import { namesOf } from "@/db/queries/runs";
import type { RunEvent, RunEventKind, RunStatus } from "@/db/schema";
import { isUuid } from "@/lib/ids";
import { type HandoffGraph, type RunEntry, runEntries } from "@/lib/run-view";
import { definitionFailureIn } from "@/lib/runtime/definition-errors";

/** How many of a run's events its page shows at a time. */
export const RUN_EVENTS_PAGE_SIZE = 50;

/**
 * Which events a run page shows: the latest, those before an event (`?before=<event id>`, the link
 * to older events), or the latest again because the cursor given is not one the page makes.
 */
export type RunEventsCursor = { kind: "latest" } | { kind: "before"; id: number } | { kind: "invalid" };

/** Reads `?before=` as the run page's cursor: absent or empty is the latest; anything but an event id is invalid. */
export function parseRunEventsCursor(value: unknown): RunEventsCursor {
  if (value === undefined || value === "") return { kind: "latest" };
  if (typeof value !== "string" || !/^[1-9][0-9]{0,14}$/.test(value)) return { kind: "invalid" };
  return { kind: "before", id: Number(value) };
}

/** One page of a run's story. */
export interface RunHistory {
  /** The lines of this page's events, oldest first. */
  entries: RunEntry[];
  /** The link to the events before these and how many it shows (at most a page); null when none are older. */
  older: { before: number; count: number } | null;
  /** Whether these are the run's latest events (else the page offers the way back to them). */
  latest: boolean;
  /** The cursor given was not one the page makes: these are the latest instead. */
  invalidCursor: boolean;
}

/** Events that carry on a model turn begun before them: they are shown with the turn's start. */
const TURN_CONTINUATIONS: ReadonlySet<RunEventKind> = new Set(["turn-finished", "turn-failed", "tool-called"]);

/** Ids of people the events mention, so their names can be read in one query. */
function peopleIn(events: readonly RunEvent[]): string[] {
  const ids: string[] = [];
  for (const event of events) {
    for (const key of ["by", "to", "from", "assigneeId"] as const) {
      const value = event.data?.[key];
      if (isUuid(value)) ids.push(value);
    }
  }
  return ids;
}

/** The questions whose answers these events show. */
function answeredIn(events: readonly RunEvent[]): string[] {
  return events.flatMap((event) => (event.kind === "answered" && isUuid(event.data?.questionId) ? [event.data.questionId] : []));
}

/** The lines of these events, with the names and answers they mention (only theirs are read). */
async function entriesOf(db: Db, taskId: string, events: readonly RunEvent[]): Promise<RunEntry[]> {
  if (events.length === 0) return [];
  const [names, answers] = await Promise.all([namesOf(db, peopleIn(events)), listAnswersOfQuestions(db, taskId, answeredIn(events))]);
  return runEntries(events, { names, answers });
}

/**
 * One page of a run's story: its latest events, or those before the cursor's event, and whether
 * older ones remain. What is read is bounded by the page, never by the run: the page's events (one
 * range of the task's index), a count of older ones up to a page, and the names and answers those
 * events mention. A page never begins inside a model turn: the end of a turn whose start is older
 * goes with that start, on the older page.
 */
export async function loadRunHistory(db: Db, taskId: string, options: { before?: unknown; pageSize?: number } = {}): Promise<RunHistory> {
  const pageSize = options.pageSize ?? RUN_EVENTS_PAGE_SIZE;
  const cursor = parseRunEventsCursor(options.before);
  const read = await listRunEventsBefore(db, taskId, { before: cursor.kind === "before" ? cursor.id : undefined, limit: pageSize });
  let events = read;
  if (read.length === pageSize) {
    const start = read.findIndex((event) => !TURN_CONTINUATIONS.has(event.kind));
    if (start > 0) events = read.slice(start);
  }
  const oldest = events[0];
  const [entries, olderCount] = await Promise.all([entriesOf(db, taskId, events), oldest && read.length === pageSize ? countRunEventsBefore(db, taskId, oldest.id, pageSize) : 0]);
  return {
    entries,
    older: oldest && olderCount > 0 ? { before: oldest.id, count: olderCount } : null,
    latest: cursor.kind !== "before",
    invalidCursor: cursor.kind === "invalid",
  };
}

/** How a run that stopped stopped, whichever page of its events is shown. */
export interface RunEnding {
  /** The failure a retryable run stopped on. */
  failure?: Extract<RunEntry, { kind: "failed" }>;
  /** Why a failed run stopped because its workflow is wrong. */
  definitionFailure?: { cause: string };
  /** Who cancelled a cancelled run, and what it withdrew. */
  cancelled?: Extract<RunEntry, { kind: "cancelled" }>;
}

/** The line of a run's latest event of this kind, if it has one. */
async function latestEntryOf(db: Db, taskId: string, kind: RunEventKind): Promise<RunEntry | undefined> {
  const event = await findLatestRunEvent(db, taskId, [kind]);
  return event ? (await entriesOf(db, taskId, [event]))[0] : undefined;
}

/** How a run with this status stopped, from its latest event of the kind that says so (nothing for a run that has not stopped). */
export async function loadRunEnding(db: Db, taskId: string, status: RunStatus): Promise<RunEnding> {
  if (status === "retryable") {
    const entry = await latestEntryOf(db, taskId, "failed");
    return entry?.kind === "failed" ? { failure: entry } : {};
  }
  if (status === "failed") {
    const definitionFailure = await definitionFailureOfRun(db, taskId);
    return definitionFailure ? { definitionFailure } : {};
  }
  if (status === "cancelled") {
    const entry = await latestEntryOf(db, taskId, "cancelled");
    return entry?.kind === "cancelled" ? { cancelled: entry } : {};
  }
  return {};
}

/**
 * Who handed to whom over the whole run, as `handoffGraph` draws it from the events, counted by the
 * database: only an agent's turns and handoffs come back, never the run's events.
 */
export async function loadHandoffGraph(db: Db, taskId: string): Promise<HandoffGraph> {
  const turns = new Map<string, number>();
  const edges: HandoffGraph["edges"] = [];
  for (const row of await listTurnHandoffs(db, taskId)) {
    turns.set(row.agent, (turns.get(row.agent) ?? 0) + row.count);
    if (row.previous !== null && row.previous !== row.agent) edges.push({ from: row.previous, to: row.agent, count: row.count });
  }
  return { agents: [...turns].map(([name, count]) => ({ name, turns: count })), edges };
}

/** Why a run stopped because its workflow is wrong, from its latest failure (for Retry, which must not retry it). */
export async function definitionFailureOfRun(db: Db, taskId: string): Promise<{ cause: string } | undefined> {
  const event = await findLatestRunEvent(db, taskId, ["failed"]);
  return event ? definitionFailureIn([event]) : undefined;
}
