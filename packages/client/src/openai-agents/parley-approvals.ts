import { type Agent, type RunResult, RunState, type RunToolApprovalItem, run as runAgent } from "@openai/agents";
import type { CreateAskInput, ParleyClient } from "../parley-client.js";
import type { Ask, AskResult, JsonSchemaObject, NothingReason, Within } from "../types.js";
import type { RunStateStore } from "./run-state-store.js";

// Any agent, whatever its context and output types: the SDK's own signatures take them so too.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAgent = Agent<any, any>;

/** The `metadata` key that names, on each ask, the run it belongs to (see {@link runIdOfAsk}). */
export const RUN_ID_METADATA_KEY = "openai_agents_run_id";

/** The format of what {@link ParleyApprovals.park} keeps in the store. */
const RECORD_FORMAT = "parley-openai-agents/1";

/** The question each approval asks: approve or reject, and why. */
const APPROVAL_SCHEMA: JsonSchemaObject = {
  type: "object",
  properties: {
    decision: {
      description: "Let the agent make this call?",
      oneOf: [
        { const: "approve", title: "Approve" },
        { const: "reject", title: "Reject" },
      ],
    },
    note: { type: "string", maxLength: 2000, multiline: true, description: "Why not? The agent reads this if you reject." },
  },
  required: ["decision"],
};

/** What the person sees for one tool call: by default, the tool's name, the agent's, and the call's arguments. */
export interface ApprovalQuestion {
  title: string;
  body?: string;
  context?: Record<string, string | number | boolean>;
}

/** One tool call waiting for a person's approval, as {@link ParleyApprovals.park} asked it. */
export interface PendingApproval {
  /** The model's id for the tool call. */
  callId: string;
  toolName: string;
  /** The call's arguments as the model wrote them (JSON text). */
  arguments: string;
  /** The Parley ask. */
  askId: string;
  /** The question's page, where the person decides. */
  url: string;
}

/** How one tool call was decided, and what the model was told when it was rejected. */
export interface ApprovalDecision {
  callId: string;
  toolName: string;
  approved: boolean;
  /** For a rejection: the text the model reads as the call's output. */
  message?: string;
  /** The ask's outcome: the person's answer, or nothing with its reason (`expired`, `declined`…). */
  outcome: AskResult<unknown>;
}

/**
 * What {@link ParleyApprovals.resume} did, as a union on `status`:
 * - `waiting`: some approvals are still open (`open`); nothing was changed, resume again later;
 * - `finished`: every approval was decided and the run went on to its end (`result.finalOutput`);
 * - `parked`: the run went on and stopped at new approvals, which were asked and parked again;
 * - `missing`: nothing is stored under this run id — it was never parked, or another resume took it.
 */
export type ResumeOutcome<TAgent extends AnyAgent> =
  | { status: "waiting"; runId: string; open: PendingApproval[] }
  | { status: "finished"; runId: string; decisions: ApprovalDecision[]; result: RunResult<unknown, TAgent> }
  | { status: "parked"; runId: string; decisions: ApprovalDecision[]; result: RunResult<unknown, TAgent>; approvals: PendingApproval[] }
  | { status: "missing"; runId: string };

/** A run that stopped at approvals: what {@link ParleyApprovals.park} takes (a `RunResult`, streamed or not). */
export interface InterruptedRun<TContext = unknown> {
  readonly state: RunState<TContext, AnyAgent>;
  readonly interruptions: readonly RunToolApprovalItem[];
}

/** Options of {@link ParleyApprovals.resume}. */
export interface ResumeOptions<TAgent extends AnyAgent> {
  /**
   * Wait for open approvals (long-polling Parley, across its restarts) — the default — or, with
   * false, look once and come back `waiting` (for a webhook handler, called on each `ask.answered`/`ask.nothing`).
   */
  wait?: boolean;
  /** Stops waiting; the run stays parked. */
  signal?: AbortSignal;
  /**
   * Continues the run once every approval is applied: by default the SDK's `run(agent, state)`. Pass
   * your own to use a `Runner`, a context, `maxTurns`… (`(agent, state) => runner.run(agent, state, { maxTurns: 5 })`).
   */
  run?: (agent: TAgent, state: RunState<unknown, TAgent>) => Promise<RunResult<unknown, TAgent>>;
}

/** Options of {@link parleyApprovals}. */
export interface ParleyApprovalsOptions {
  /** The Parley client the asks are made with (an agent key). */
  parley: ParleyClient;
  /** Who decides: one person's email, or several (any one of them may answer). */
  to: string | readonly string[];
  /** Where parked runs are kept until they resume: {@link fileRunStateStore}, or your database. */
  store: RunStateStore;
  /** How long each approval stays open; when it passes with no answer, the call is rejected (reason `expired`). */
  within?: Within;
  /** Where Parley posts each ask's outcome (`ask.answered`, `ask.nothing`); find the run with {@link runIdOfAsk}. */
  callbackUrl?: string;
  /** The question for a tool call; by default "Allow <agent> to call <tool>?" with its arguments. */
  describe?: (item: RunToolApprovalItem) => ApprovalQuestion;
  /** The text the model reads for a rejected call; by default who rejected it and why, or why nobody decided. */
  rejectionMessage?: (decision: Omit<ApprovalDecision, "approved" | "message">) => string;
}

/** Tool approvals of OpenAI Agents SDK runs, asked of people through Parley. */
export interface ParleyApprovals {
  /**
   * Parks a run that stopped at approvals (`result.interruptions`): keeps its `RunState` in the store
   * under `runId`, then asks a person about each tool call — one ask per call, approve or reject,
   * with the tool's name and arguments. The asks' Idempotency-Keys come from `runId` and the call's
   * id, so parking the same run again never asks twice. Give a `runId` unique to the run (a ticket, a
   * job id), of your choosing, to resume it by.
   */
  park<TContext>(runId: string, run: InterruptedRun<TContext>): Promise<{ runId: string; approvals: PendingApproval[] }>;
  /**
   * Resumes a parked run once every one of its approvals is decided, in this process or any other:
   * loads its state with `agent` (the same agent, with the same tools, that started it), approves
   * each call the person approved, rejects the others — those rejected, and those nobody answered
   * (expired, declined, away…), with a message the model reads saying why — and runs it on. The run
   * resumes at most once: of two resumes at once, one gets it and the other `missing`.
   */
  resume<TAgent extends AnyAgent>(runId: string, agent: TAgent, options?: ResumeOptions<TAgent>): Promise<ResumeOutcome<TAgent>>;
}

/** One approval as kept in the store: the ask request, sent again by key to find its ask. */
interface StoredApproval {
  callId: string;
  toolName: string;
  arguments: string;
  idempotencyKey: string;
  request: CreateAskInput;
}

/** What is kept under a run's id. */
interface StoredRun {
  format: typeof RECORD_FORMAT;
  runId: string;
  /** How many times the run was parked before (0, then 1 once a resume parks it again…): part of each ask's key. */
  generation: number;
  state: string;
  approvals: StoredApproval[];
}

/**
 * The id of the run an ask was made for, from its `metadata` — for a webhook handler: pass the
 * event's ask (`event.data`) and resume that run. Undefined for an ask this adapter did not make.
 */
export function runIdOfAsk(ask: Pick<Ask, "metadata">): string | undefined {
  const runId = ask.metadata?.[RUN_ID_METADATA_KEY];
  return typeof runId === "string" ? runId : undefined;
}

/** The id of a tool call, as the SDK keeps it on the approval item. */
function callIdOf(item: RunToolApprovalItem): string {
  const raw = item.rawItem as { callId?: unknown; id?: unknown };
  if (typeof raw.callId === "string") return raw.callId;
  if (typeof raw.id === "string") return raw.id;
  throw new TypeError(`The approval for ${item.name ?? "a tool"} carries no call id to ask about it by.`);
}

/** An Idempotency-Key Parley takes (printable ASCII, at most 255 characters) for one call of one run. */
async function idempotencyKeyOf(runId: string, generation: number, callId: string): Promise<string> {
  const key = `openai-agents:${encodeURIComponent(runId)}:${generation}:${encodeURIComponent(callId)}`;
  if (key.length <= 255) return key;
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${runId}\u0000${generation}\u0000${callId}`));
  return `openai-agents:sha256:${Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

const clip = (text: string, length: number) => (text.length <= length ? text : `${text.slice(0, length - 1)}…`);

/** The default question: the tool, the agent, and the arguments (each top-level one as a fact beside it). */
function defaultQuestion(item: RunToolApprovalItem): ApprovalQuestion {
  const toolName = item.name ?? "a tool";
  const argumentsText = item.arguments ?? "";
  let parsed: unknown;
  try {
    parsed = argumentsText ? JSON.parse(argumentsText) : undefined;
  } catch {
    parsed = undefined;
  }
  const context: Record<string, string | number | boolean> = { tool: clip(toolName, 2000), agent: clip(item.agent.name, 2000) };
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>).slice(0, 48)) {
      if (name.length === 0 || name in context) continue;
      context[clip(name, 100)] = typeof value === "number" || typeof value === "boolean" ? value : clip(typeof value === "string" ? value : JSON.stringify(value), 2000);
    }
  }
  const shown = parsed === undefined ? argumentsText : JSON.stringify(parsed, null, 2);
  return {
    title: clip(`Allow ${item.agent.name} to call ${toolName}?`, 300),
    body: clip(`${item.agent.name} wants to call the tool ${toolName} with these arguments:\n\n${shown || "(none)"}`, 10_000),
    context,
  };
}

/** Why nobody decided, in words the model can act on. */
const NOTHING_WORDS: Record<NothingReason, string> = {
  expired: "nobody answered before the deadline",
  declined: "the person asked declined to decide",
  away: "the person asked is away",
  cancelled: "the request for approval was withdrawn",
  refused: "the answers given were refused too many times",
  "non-interactive": "nobody can be asked (non-interactive)",
  unavailable: "nobody was available to ask",
};

/** The default text the model reads for a rejected call. */
function defaultRejectionMessage({ toolName, outcome }: Omit<ApprovalDecision, "approved" | "message">): string {
  if (!outcome.ok) {
    const who = outcome.reason === "declined" && outcome.ask.declined_by ? `${outcome.ask.declined_by.name} declined to decide` : NOTHING_WORDS[outcome.reason];
    return `The call to ${toolName} was not approved and did not run: ${who} (reason: ${outcome.reason}).${outcome.note ? ` Their note: ${outcome.note}` : ""}`;
  }
  const answer = outcome.value as { note?: unknown };
  const who = outcome.ask.answered_by?.name ?? "The person asked";
  const note = typeof answer.note === "string" && answer.note.trim() ? ` Their reason: ${answer.note.trim()}` : "";
  return `${who} rejected the call to ${toolName}; it did not run.${note}`;
}

/** Whether an ask's outcome approves the call: only a person's explicit "approve". */
function isApproval(outcome: AskResult<unknown>): boolean {
  return outcome.ok && typeof outcome.value === "object" && outcome.value !== null && (outcome.value as { decision?: unknown }).decision === "approve";
}

/** A stored run read back, or a clear error for something else under the key. */
function readRecord(text: string, runId: string): StoredRun {
  const record = JSON.parse(text) as Partial<StoredRun>;
  if (record.format !== RECORD_FORMAT || typeof record.state !== "string" || typeof record.generation !== "number" || !Array.isArray(record.approvals)) {
    throw new TypeError(`What the store holds for run ${runId} is not a run parked by @parleyhq/client/openai-agents.`);
  }
  return record as StoredRun;
}

/**
 * Tool approvals of OpenAI Agents SDK runs (`tool({ needsApproval })`), asked of people through
 * Parley and resumed — minutes or days later, in any process — with their decisions:
 *
 * ```ts
 * const approvals = parleyApprovals({ parley, to: "sam@example.com", store: fileRunStateStore("./runs"), within: { hours: 4 } });
 * const result = await run(agent, "Refund order 42");
 * if (result.interruptions.length > 0) await approvals.park("ticket-42", result);
 * // later, anywhere:
 * const outcome = await approvals.resume("ticket-42", agent);
 * if (outcome.status === "finished") console.log(outcome.result.finalOutput);
 * ```
 */
export function parleyApprovals(options: ParleyApprovalsOptions): ParleyApprovals {
  const { parley, store } = options;
  const describe = options.describe ?? defaultQuestion;
  const rejectionMessage = options.rejectionMessage ?? defaultRejectionMessage;

  async function storedApproval(runId: string, generation: number, item: RunToolApprovalItem): Promise<StoredApproval> {
    const callId = callIdOf(item);
    const question = describe(item);
    const request: CreateAskInput = {
      to: typeof options.to === "string" ? options.to : [...options.to],
      title: question.title,
      ...(question.body !== undefined ? { body: question.body } : {}),
      ...(question.context !== undefined ? { context: question.context } : {}),
      responseSchema: APPROVAL_SCHEMA,
      ...(options.within !== undefined ? { within: options.within } : {}),
      ...(options.callbackUrl !== undefined ? { callbackUrl: options.callbackUrl } : {}),
      metadata: { [RUN_ID_METADATA_KEY]: runId, openai_agents_call_id: callId, openai_agents_tool: item.name ?? null },
    };
    return { callId, toolName: item.name ?? "tool", arguments: item.arguments ?? "", idempotencyKey: await idempotencyKeyOf(runId, generation, callId), request };
  }

  // The same request under the same key gives back the ask made first — open, or as it ended — so
  // this both makes an ask and finds it again, and heals a park interrupted between store and ask.
  async function askOf(approval: StoredApproval, signal: AbortSignal | undefined): Promise<Ask> {
    const { ask } = await parley.createAsk(approval.request, { idempotencyKey: approval.idempotencyKey, ...(signal ? { signal } : {}) });
    return ask;
  }

  const pendingOf = (approval: StoredApproval, ask: Ask): PendingApproval => ({
    callId: approval.callId,
    toolName: approval.toolName,
    arguments: approval.arguments,
    askId: ask.id,
    url: ask.url,
  });

  async function park<TContext>(runId: string, interrupted: InterruptedRun<TContext>, generation = 0): Promise<{ runId: string; approvals: PendingApproval[] }> {
    if (typeof runId !== "string" || runId.length === 0) throw new TypeError("park needs the run's id: a non-empty string you can resume it by.");
    const items = interrupted.interruptions;
    if (items.length === 0) throw new TypeError(`Run ${runId} is waiting for no approval: park a run whose result has interruptions.`);
    const approvals = await Promise.all(items.map((item) => storedApproval(runId, generation, item)));
    const record: StoredRun = { format: RECORD_FORMAT, runId, generation, state: interrupted.state.toString(), approvals };
    // Kept before anyone is asked: an answer (or an "away" that closes the ask at once) may resume
    // the run from another process before the asks below have returned.
    await store.save(runId, JSON.stringify(record));
    const asks = await Promise.all(approvals.map((approval) => askOf(approval, undefined)));
    return { runId, approvals: approvals.map((approval, index) => pendingOf(approval, asks[index]!)) };
  }

  async function decisionsOf(record: StoredRun, wait: boolean, signal: AbortSignal | undefined): Promise<{ decided: ApprovalDecision[]; open: PendingApproval[] }> {
    // Asked side by side; listed in the order the run's calls were made.
    const looked = await Promise.all(
      record.approvals.map(async (approval): Promise<{ decided: ApprovalDecision } | { open: PendingApproval }> => {
        const ask = await askOf(approval, signal);
        const outcome: AskResult<unknown> | undefined =
          ask.status === "answered"
            ? { ok: true, value: ask.answer, ask }
            : ask.status === "nothing"
              ? { ok: false, reason: ask.reason, ...(ask.note ? { note: ask.note } : {}), ask }
              : wait
                ? await parley.waitForAnswer(ask.id, signal ? { signal } : {})
                : undefined;
        if (!outcome) return { open: pendingOf(approval, ask) };
        const approved = isApproval(outcome);
        const base = { callId: approval.callId, toolName: approval.toolName, outcome };
        return { decided: approved ? { ...base, approved } : { ...base, approved, message: rejectionMessage(base) } };
      }),
    );
    return { decided: looked.flatMap((each) => ("decided" in each ? [each.decided] : [])), open: looked.flatMap((each) => ("open" in each ? [each.open] : [])) };
  }

  async function resume<TAgent extends AnyAgent>(runId: string, agent: TAgent, resumeOptions: ResumeOptions<TAgent> = {}): Promise<ResumeOutcome<TAgent>> {
    const wait = resumeOptions.wait ?? true;
    const continueRun = resumeOptions.run ?? ((runAgentOf: TAgent, state: RunState<unknown, TAgent>) => runAgent(runAgentOf, state));
    // At most a few rounds: another round happens only when the run was resumed and parked again
    // between our look and our take.
    for (let round = 0; round < 3; round++) {
      const seen = await store.load(runId);
      if (seen === undefined) return { status: "missing", runId };
      const { decided, open } = await decisionsOf(readRecord(seen, runId), wait, resumeOptions.signal);
      if (open.length > 0) return { status: "waiting", runId, open };
      // Only the resume that takes the state runs it: two answers' webhooks arriving together both
      // see every approval decided, and one of them finds the store empty.
      const taken = await store.take(runId);
      if (taken === undefined) return { status: "missing", runId };
      if (taken !== seen) {
        // Another resume ran it and parked it again meanwhile: those are other approvals.
        await store.save(runId, taken);
        continue;
      }
      const record = readRecord(taken, runId);
      try {
        const state = await RunState.fromString<unknown, TAgent>(agent, record.state);
        const byCall = new Map(decided.map((decision) => [decision.callId, decision]));
        for (const item of state.getInterruptions()) {
          const decision = byCall.get(callIdOf(item));
          if (!decision) throw new TypeError(`Run ${runId} is waiting for an approval of ${item.name ?? "a tool"} that was never asked.`);
          if (decision.approved) state.approve(item);
          else state.reject(item, { message: decision.message! });
        }
        const result = await continueRun(agent, state);
        if (result.interruptions.length > 0) {
          // A new generation: a model may name its calls as it did before, and they are new calls.
          const parked = await park(runId, result, record.generation + 1);
          return { status: "parked", runId, decisions: decided, result, approvals: parked.approvals };
        }
        return { status: "finished", runId, decisions: decided, result };
      } catch (error) {
        // The run stays parked, to be resumed again. A call approved may then run a second time if
        // it ran before the failure: tools behind an approval should be safe to repeat.
        if ((await store.load(runId)) === undefined) await store.save(runId, taken);
        throw error;
      }
    }
    return { status: "missing", runId };
  }

  return { park: (runId, interrupted) => park(runId, interrupted), resume };
}
