import type { RunState } from "@/db/queries/runs";
import type { RunEvent, RunStatus } from "@/db/schema";
import { NOTHING_REASON_LABELS } from "@/lib/question-view";
import { formatDuration } from "@/lib/sla-clock";
import { answerLine, describeAnswer, type QuestionSpec } from "@/lib/questions";

/**
 * Where a run stands, in the one set of words every page uses: the runs list's tabs and rows, the run
 * page, a question's page. A run that failed and can be retried is failed like one that cannot; one
 * whose flow ended because nobody answered (expired, refused, away…) ended without an answer.
 */
export const RUN_STATE_WORDS: Readonly<Record<RunState, string>> = {
  running: "Running",
  waiting: "Waiting",
  completed: "Completed",
  failed: "Failed",
  nothing: "Ended without an answer",
  cancelled: "Cancelled",
};

/** A count of runs as a tab shows it: "1,234", or "1,000+" past what was counted. */
export function runCountWords(count: { count: number; atLeast: boolean }): string {
  return `${count.count.toLocaleString("en-US")}${count.atLeast ? "+" : ""}`;
}

/** A run's state in words, with what more there is to say: that it can be retried, or why nobody answered. */
export function runStateWords(run: { runState: RunState; status: RunStatus; nothingReason?: string | null }): { label: string; note: string | null } {
  const reason = run.nothingReason;
  const note =
    run.runState === "nothing" && reason
      ? (Object.hasOwn(NOTHING_REASON_LABELS, reason) ? NOTHING_REASON_LABELS[reason as keyof typeof NOTHING_REASON_LABELS] : reason)
      : run.status === "retryable"
        ? "can be retried"
        : null;
  return { label: RUN_STATE_WORDS[run.runState], note };
}

/** A question's field as the run page lists it. */
export interface RunQuestionField {
  question: string;
  options: string[];
}

/**
 * One line of a run as operators read it. A model turn is one entry (started, then finished or
 * failed); a person's answer is an `answer`, never a turn.
 */
export type RunEntry =
  | { kind: "started"; id: number; at: Date; workflow: string }
  | { kind: "state"; id: number; at: Date; state: string; from: string | null }
  | { kind: "turn"; id: number; at: Date; agent: string; status: "thinking" | "finished" | "failed"; durationMs: number | null; tools: string[]; cause: string | null }
  | { kind: "question"; id: number; at: Date; questionId: string | null; asker: string; agent: boolean; to: string | null; title: string | null; fields: RunQuestionField[] }
  | { kind: "parked"; id: number; at: Date; agent: string | null }
  | { kind: "slot-opened"; id: number; at: Date; event: string; assignee: string | null; candidates: number; dueAt: Date | null }
  | { kind: "answer"; id: number; at: Date; questionId: string | null; by: string; waitMs: number | null; event: string; answer: string | null }
  | { kind: "refused"; id: number; at: Date; by: string; attempt: number; of: number }
  /** `note`: what a person who declined (reason `declined`) wrote for the asker. */
  | { kind: "nothing"; id: number; at: Date; questionId: string | null; reason: string; by: string | null; note: string | null }
  | { kind: "slot-expired"; id: number; at: Date; event: string; waitMs: number | null }
  | { kind: "reassigned"; id: number; at: Date; from: string | null; to: string; by: string | null }
  | { kind: "claimed"; id: number; at: Date; by: string; given: boolean }
  /** A step of the wait's escalation chain fired: a reminder to `reminded` (its assignee; null: those it waits on), or `group` added. */
  | { kind: "escalated"; id: number; at: Date; step: number; percent: number | null; action: "remind" | "add-group"; reminded: string | null; group: string | null }
  | { kind: "resumed"; id: number; at: Date; agent: string | null }
  | { kind: "failed"; id: number; at: Date; state: string | null; cause: string; code: string | null; retryable: boolean }
  | { kind: "completed"; id: number; at: Date; state: string | null; message: string | null }
  /** An operator cancelled the run: who, in which state, and how many questions were withdrawn. */
  | { kind: "cancelled"; id: number; at: Date; by: string; state: string | null; withdrawn: number }
  /** Someone queued the failed run's work again. */
  | { kind: "retried"; id: number; at: Date; by: string };

/** Who handed to whom: agents only (a person answering is never a node). */
export interface HandoffGraph {
  agents: { name: string; turns: number }[];
  edges: { from: string; to: string; count: number }[];
}

/** What the run page needs besides the events: names for user ids, and what was answered by question. */
export interface RunViewContext {
  names: ReadonlyMap<string, string>;
  answers: ReadonlyMap<string, { answer: unknown; spec: QuestionSpec }>;
}

const string = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const number = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : typeof value === "string" && value !== "" && Number.isFinite(Number(value)) ? Number(value) : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((each): each is string => typeof each === "string") : []);

function fieldsOf(data: Record<string, unknown>): RunQuestionField[] {
  if (Array.isArray(data.fields) && data.fields.length > 0) {
    return data.fields.map((field: { question?: unknown; options?: unknown }) => ({ question: string(field?.question) ?? "", options: strings(field?.options) }));
  }
  return [{ question: string(data.text) ?? "", options: strings(data.options) }];
}

/**
 * An answer as a line of text, read back as its person gave it: a choice by its title, yes or no,
 * several questions as "question: answer" (an agent's ask answered in words is that text).
 */
export function answerText(stored: { answer: unknown; spec: QuestionSpec } | undefined): string | null {
  return stored ? answerLine(describeAnswer(stored.spec, stored.answer)) : null;
}

/** An escalation step in words: "Escalated: reminded Sam Rivera (50 % of the SLA)", "Escalated to the team finance (80 % of the SLA)". */
export function escalationText(entry: Pick<Extract<RunEntry, { kind: "escalated" }>, "action" | "percent" | "reminded" | "group">): string {
  const when = entry.percent === null ? "" : ` (${entry.percent} % of the SLA)`;
  return entry.action === "add-group" ? `Escalated to the team ${entry.group ?? "(a group)"}${when}` : `Escalated: reminded ${entry.reminded ?? "those it waits on"}${when}`;
}

/** "12 ms", "1.4 s", then "3m", "2h 5m": how long a model turn took. */
export function formatTurnDuration(milliseconds: number): string {
  if (milliseconds < 1_000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1_000).toFixed(1)} s`;
  return formatDuration(milliseconds);
}

/** The run's events as the lines the run page shows, oldest first. */
export function runEntries(events: readonly RunEvent[], context: RunViewContext): RunEntry[] {
  const nameOf = (id: unknown): string | null => {
    const key = string(id);
    return key ? (context.names.get(key) ?? "someone") : null;
  };
  const entries: RunEntry[] = [];
  // The turn each agent has open, so its tool calls and its finish land on it.
  const openTurns = new Map<string, Extract<RunEntry, { kind: "turn" }>>();
  for (const event of events) {
    const data = event.data ?? {};
    const base = { id: event.id, at: new Date(event.at) };
    const agent = event.agent ?? null;
    switch (event.kind) {
      case "run-started":
        entries.push({ ...base, kind: "started", workflow: string(data.workflow) ?? "" });
        break;
      case "state-entered":
        entries.push({ ...base, kind: "state", state: string(data.state) ?? "", from: string(data.from) });
        break;
      case "turn-started": {
        const turn: Extract<RunEntry, { kind: "turn" }> = { ...base, kind: "turn", agent: agent ?? "agent", status: "thinking", durationMs: null, tools: [], cause: null };
        openTurns.set(turn.agent, turn);
        entries.push(turn);
        break;
      }
      case "turn-finished":
      case "turn-failed": {
        const name = agent ?? "agent";
        let turn = openTurns.get(name);
        if (!turn) {
          turn = { ...base, kind: "turn", agent: name, status: "thinking", durationMs: null, tools: [], cause: null };
          entries.push(turn);
        }
        turn.status = event.kind === "turn-finished" ? "finished" : "failed";
        turn.durationMs = number(data.durationMs);
        turn.cause = event.kind === "turn-failed" ? (string(data.cause) ?? "unknown") : null;
        // Tool calls are recorded after the turn that made them; keep the turn open for them.
        if (event.kind === "turn-failed") openTurns.delete(name);
        break;
      }
      case "tool-called": {
        const turn = openTurns.get(agent ?? "agent");
        const tool = string(data.tool) ?? "a tool";
        if (turn) turn.tools.push(tool);
        else entries.push({ ...base, kind: "turn", agent: agent ?? "agent", status: "finished", durationMs: null, tools: [tool], cause: null });
        break;
      }
      case "question-asked":
        entries.push({
          ...base,
          kind: "question",
          questionId: string(data.questionId),
          asker: agent ?? "The workflow",
          agent: agent !== null,
          to: nameOf(data.to),
          title: string(data.title),
          fields: fieldsOf(data),
        });
        break;
      case "parked":
        openTurns.clear();
        entries.push({ ...base, kind: "parked", agent });
        break;
      case "slot-opened": {
        const due = string(data.dueAt);
        entries.push({ ...base, kind: "slot-opened", event: string(data.event) ?? "", assignee: nameOf(data.assigneeId), candidates: number(data.candidates) ?? 0, dueAt: due ? new Date(due) : null });
        break;
      }
      case "answered": {
        const questionId = string(data.questionId);
        entries.push({
          ...base,
          kind: "answer",
          questionId,
          by: nameOf(data.by) ?? "someone",
          waitMs: number(data.waitMs),
          event: string(data.event) ?? "",
          answer: questionId ? answerText(context.answers.get(questionId)) : null,
        });
        break;
      }
      case "answer-refused":
        entries.push({ ...base, kind: "refused", by: nameOf(data.by) ?? "someone", attempt: number(data.attempt) ?? 0, of: number(data.of) ?? 0 });
        break;
      case "nothing":
        entries.push({ ...base, kind: "nothing", questionId: string(data.questionId), reason: string(data.reason) ?? "unknown", by: nameOf(data.by), note: string(data.note) ?? null });
        break;
      case "slot-expired":
        entries.push({ ...base, kind: "slot-expired", event: string(data.event) ?? "", waitMs: number(data.waitMs) });
        break;
      case "slot-reassigned":
        entries.push({ ...base, kind: "reassigned", from: nameOf(data.from), to: nameOf(data.to) ?? "someone", by: nameOf(data.by) });
        break;
      case "slot-claimed":
      case "slot-unclaimed":
        entries.push({ ...base, kind: "claimed", by: nameOf(data.by) ?? "someone", given: event.kind === "slot-unclaimed" });
        break;
      case "escalated": {
        const action = (data.action ?? {}) as { kind?: unknown; group?: unknown };
        const adds = action.kind === "add-group";
        entries.push({
          ...base,
          kind: "escalated",
          step: number(data.step) ?? 0,
          percent: number(data.percent),
          action: adds ? "add-group" : "remind",
          reminded: adds ? null : nameOf(data.assigneeId),
          group: adds ? (string(data.group) ?? string(action.group)) : null,
        });
        break;
      }
      case "resumed":
        openTurns.clear();
        entries.push({ ...base, kind: "resumed", agent });
        break;
      case "failed":
        openTurns.clear();
        entries.push({
          ...base,
          kind: "failed",
          state: string(data.state),
          cause: string(data.cause) ?? string(data.message) ?? "the run failed",
          code: string(data.code),
          retryable: data.retryable === true,
        });
        break;
      case "completed":
        entries.push({ ...base, kind: "completed", state: string(data.state), message: string(data.message) });
        break;
      case "retried":
        entries.push({ ...base, kind: "retried", by: nameOf(data.by) ?? "someone" });
        break;
      case "cancelled":
        openTurns.clear();
        entries.push({ ...base, kind: "cancelled", by: nameOf(data.by) ?? "someone", state: string(data.state), withdrawn: number(data.withdrawn) ?? 0 });
        break;
    }
  }
  return entries;
}

/**
 * Who handed to whom, from the order of model turns: each agent with its turn count, and an edge
 * wherever one agent's turn follows another's. People are not agents and never appear.
 */
export function handoffGraph(events: readonly RunEvent[]): HandoffGraph {
  const turns = new Map<string, number>();
  const edges = new Map<string, { from: string; to: string; count: number }>();
  let previous: string | null = null;
  for (const event of events) {
    if (event.kind !== "turn-started" || !event.agent) continue;
    turns.set(event.agent, (turns.get(event.agent) ?? 0) + 1);
    if (previous && previous !== event.agent) {
      const key = `${previous}\u0000${event.agent}`;
      const edge = edges.get(key) ?? { from: previous, to: event.agent, count: 0 };
      edge.count++;
      edges.set(key, edge);
    }
    previous = event.agent;
  }
  return { agents: [...turns].map(([name, count]) => ({ name, turns: count })), edges: [...edges.values()] };
}
