// Longer than ~250 lines on purpose: `agent.ask` and `agent.answer` share the conversation this runtime
// holds, the replay of a step already stored and the one model step; in one file those stay private.
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import type { Db } from "@/db/client";
import { appendStep, type NewAsk, type OpenAsk, type OpenedConversation, openConversation, recordAnswer, type StoredMessage } from "@/db/queries/runtime-conversations";
import { appendRunEvents, type NewRunEvent } from "@/db/queries/runtime-events";
import { AppError } from "@/lib/errors";
import { agentAskSpec, agentAskText } from "./agent-question";
import type { Commit, RuntimeChange } from "./announce";
import { questionAskedData } from "./question-events";
import { ASK_TOOL_NAME, askInputSchema, askTool } from "./ask-tool";
import { callModel, type ModelTurn } from "./model-call";
import type { ConversationCache } from "./conversation-cache";
import { newTimeOrderedId } from "@/lib/ids";
import { inSpan } from "./tracing";
import type { Agent, AgentReply, AskedQuestion, TaskReference } from "./types";

/** Named moments a test can stop a runtime at, as if its process died there. */
export type Checkpoint = "job-claimed" | "model-returned" | "step-stored";

/** What agent turns need from the runtime. */
export interface TurnDependencies {
  readonly db: Db;
  readonly now: () => Date;
  readonly resolveModel: (agent: Agent) => LanguageModel;
  readonly turnTimeoutMs: number;
  readonly checkpoint: (point: Checkpoint) => void | Promise<void>;
  /** Runs `work` in one transaction and announces the changes it reports, inside that transaction. */
  readonly commit: Commit;
  /** Conversations read lately, so that a turn reads only what was appended since. */
  readonly conversations: ConversationCache;
}

/** Where a turn runs: which workflow instance, and the key of each model step within the job. */
export interface TurnScope {
  readonly workflowInstanceId: string | null;
  /** A key unique to this step of this job, or null outside a job (nothing to replay then). */
  nextStepKey(): string | null;
  /**
   * Whether this job ran before (claimed again after its process died or its lease ran out): only
   * then can a step of it be stored already, so only then is the conversation looked through for one.
   */
  readonly ranBefore: boolean;
}

interface Conversation {
  id: string;
  /** Every message, in order. */
  messages: readonly StoredMessage[];
  /** The conversation's asks still waiting for an answer, oldest first. */
  openAsks: readonly OpenAsk[];
}

function toQuestion(ask: OpenAsk): AskedQuestion {
  const { text, options } = agentAskText(ask.spec);
  return { id: ask.id, toolCallId: ask.toolCallId ?? "", agent: ask.agent ?? "", text, ...(options ? { options } : {}) };
}

/**
 * Reads an agent's conversation about a task — only the messages appended since this runtime last
 * read it — in one statement that may also append `events` (a turn about to start, unless step
 * `unlessStep` is stored already).
 */
async function openFor(
  deps: TurnDependencies,
  agent: Agent,
  task: TaskReference,
  extra: { events?: readonly NewRunEvent[]; unlessStep?: string | null } = {},
): Promise<Conversation> {
  const cached = deps.conversations.get(agent.name, task.id);
  const opened = await openConversation(deps.db, {
    agent: agent.name,
    taskId: task.id,
    afterSeq: cached?.messages.at(-1)?.seq ?? 0,
    ...(extra.events ? { events: extra.events, eventsUnlessStep: extra.unlessStep ?? null } : {}),
  });
  return absorb(deps, agent, task, cached, opened);
}

/** What was held of a conversation, with what a read found after it; held from now on. */
async function absorb(
  deps: TurnDependencies,
  agent: Agent,
  task: TaskReference,
  cached: { id: string; messages: readonly StoredMessage[] } | undefined,
  opened: OpenedConversation,
): Promise<Conversation> {
  let messages = [...(cached?.messages ?? []), ...opened.messages];
  if (cached && cached.id !== opened.conversationId) {
    // What was held is not this conversation's (it cannot be, short of one being recreated): read it all.
    messages = (await openConversation(deps.db, { agent: agent.name, taskId: task.id })).messages;
  }
  deps.conversations.set(agent.name, task.id, { id: opened.conversationId, messages });
  return { id: opened.conversationId, messages, openAsks: opened.openAsks };
}

/** Adds messages this runtime just committed to what it holds, if they follow on from it directly. */
function remember(deps: TurnDependencies, agent: Agent, task: TaskReference, conversation: Conversation, appended: readonly StoredMessage[]): Conversation {
  const last = conversation.messages.at(-1)?.seq ?? 0;
  const messages = appended[0]?.seq === last + 1 ? [...conversation.messages, ...appended] : conversation.messages;
  if (messages !== conversation.messages) deps.conversations.set(agent.name, task.id, { id: conversation.id, messages });
  return { ...conversation, messages };
}

/** The tools an agent is offered, made once per agent so their provider form is prepared once. */
const toolSets = new WeakMap<Agent, ToolSet>();
function toolSetOf(agent: Agent): ToolSet {
  let set = toolSets.get(agent);
  if (!set) {
    set = { ...agent.tools, ...(agent.loop ? { [ASK_TOOL_NAME]: askTool } : {}) };
    toolSets.set(agent, set);
  }
  return set;
}

function replyFrom(questions: readonly AskedQuestion[], text: string): AgentReply {
  const [first] = questions;
  return first ? { parked: true, question: first, questions, text } : { parked: false, text };
}

function textOf(message: ModelMessage | undefined): string {
  if (!message || message.role !== "assistant") return "";
  if (typeof message.content === "string") return message.content;
  return message.content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A step already stored under this key (the job ran before and died after storing it) is not run again. */
function replayedStep(conversation: Conversation, scope: TurnScope, stepKey: string | null): AgentReply | undefined {
  if (!stepKey || !scope.ranBefore) return undefined;
  const stored = conversation.messages.filter((message) => message.stepKey === stepKey).map((message) => message.message);
  if (stored.length === 0) return undefined;
  const askIds = new Set(
    stored.flatMap((message) =>
      message.role === "assistant" && typeof message.content !== "string"
        ? message.content.filter((part) => part.type === "tool-call" && part.toolName === ASK_TOOL_NAME).map((part) => (part as { toolCallId: string }).toolCallId)
        : [],
    ),
  );
  const open = conversation.openAsks.filter((ask) => ask.toolCallId !== null && askIds.has(ask.toolCallId)).map(toQuestion);
  return replyFrom(open, textOf(stored.findLast((message) => message.role === "assistant")));
}

/** One model call over the conversation so far plus `newMessages`, stored as one step. */
async function runModelStep(
  deps: TurnDependencies,
  scope: TurnScope,
  agent: Agent,
  task: TaskReference,
  conversation: Conversation | undefined,
  newMessages: readonly ModelMessage[],
  stepKey: string | null,
  turnStartRecorded = false,
): Promise<AgentReply> {
  const { db } = deps;
  const base = { taskId: task.id, workflowInstanceId: scope.workflowInstanceId, agent: agent.name };
  const tools = toolSetOf(agent);
  const model = agent.model ?? deps.resolveModel(agent);
  if (!turnStartRecorded) await appendRunEvents(db, [{ ...base, kind: "turn-started", at: deps.now() }]);
  const history = conversation?.messages.map((message) => message.message) ?? [];
  const startedAt = performance.now();
  // A timer of our own, cleared when the call ends: AbortSignal.timeout would keep every call's signal,
  // and the SDK's listeners on it, alive for the whole timeout after the call returned.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DOMException(`The model did not answer within the turn timeout (${deps.turnTimeoutMs} ms).`, "TimeoutError")), deps.turnTimeoutMs);
  let result: ModelTurn;
  try {
    // The agent's own tools may take a few steps; an ask has no execute, so it always ends the call.
    result = await callModel({ model, system: agent.prompt, history, fresh: newMessages, tools, maxSteps: 8, abortSignal: deadline.signal });
  } catch (error) {
    const cause = errorText(error);
    await appendRunEvents(db, [
      { ...base, kind: "turn-failed", data: { cause, durationMs: Math.round(performance.now() - startedAt) }, at: deps.now() },
    ]);
    throw new AppError("model_unavailable", `${agent.name}'s model call failed: ${cause}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  const durationMs = Math.round(performance.now() - startedAt);
  await deps.checkpoint("model-returned");

  const at = deps.now();
  const askCalls = result.toolCalls.filter((call) => call.toolName === ASK_TOOL_NAME);
  if (askCalls.length > 0 && agent.memory !== "persistent") {
    const message =
      `${agent.name} asked a person a question, but its memory is not persistent, so it could never take the answer back. ` +
      `Add \`memory: "persistent"\` to defineAgent({ name: "${agent.name}", … }).`;
    await appendRunEvents(db, [{ ...base, kind: "turn-failed", data: { cause: message, durationMs }, at }]);
    throw new AppError("memory_not_persistent", message);
  }

  const asks: (NewAsk & { question: AskedQuestion })[] = askCalls.map((call) => {
    const input = askInputSchema.parse(call.input);
    const id = newTimeOrderedId();
    const spec = agentAskSpec(input.question, input.options);
    const { text, options } = agentAskText(spec);
    return { id, toolCallId: call.toolCallId, spec, question: { id, toolCallId: call.toolCallId, agent: agent.name, text, ...(options ? { options } : {}) } };
  });
  const events: NewRunEvent[] = [
    { ...base, kind: "turn-finished", data: { durationMs }, at },
    ...result.toolCalls.map((call): NewRunEvent => ({ ...base, kind: "tool-called", data: { tool: call.toolName, toolCallId: call.toolCallId, input: call.input }, at })),
    ...asks.map((ask): NewRunEvent => ({ ...base, kind: "question-asked", data: questionAskedData(ask.id, ask.spec), at })),
    ...(asks.length > 0 ? [{ ...base, kind: "parked" as const, data: { questions: asks.map((ask) => ask.id) }, at }] : []),
  ];

  if (!conversation) {
    await appendRunEvents(db, events);
    return { parked: false, text: result.text };
  }
  const stepMessages = [...newMessages, ...result.responseMessages];
  const firstSeq = await deps.commit(
    async (tx) => {
      const stored = await appendStep(tx, {
        conversationId: conversation.id,
        agent: agent.name,
        taskId: task.id,
        stepKey,
        messages: stepMessages,
        asks,
        events,
        at,
      });
      return { value: stored, changes: asks.map((ask): RuntimeChange => ({ kind: "question-asked", taskId: task.id, questionId: ask.id, userIds: [] })) };
    },
    { oneStatement: true },
  );
  remember(
    deps,
    agent,
    task,
    conversation,
    // Held as a read would find them: as stored JSON.
    stepMessages.map((message, index) => ({ seq: firstSeq + index, message: JSON.parse(JSON.stringify(message)) as ModelMessage, stepKey })),
  );
  await deps.checkpoint("step-stored");
  return replyFrom(
    asks.map((ask) => ask.question),
    result.text,
  );
}

/** `agent.ask`: the agent takes these turns and replies, or asks a person and parks. */
export function askAgent(deps: TurnDependencies, scope: TurnScope, agent: Agent, task: TaskReference, turns: readonly ModelMessage[]): Promise<AgentReply> {
  return inSpan(`parley.turn ${agent.name}`, { "parley.agent": agent.name, "parley.task_id": task.id, "parley.turn.kind": "ask" }, () => askAgentNow(deps, scope, agent, task, turns));
}

async function askAgentNow(
  deps: TurnDependencies,
  scope: TurnScope,
  agent: Agent,
  task: TaskReference,
  turns: readonly ModelMessage[],
): Promise<AgentReply> {
  const stepKey = scope.nextStepKey();
  if (agent.memory !== "persistent") return runModelStep(deps, scope, agent, task, undefined, turns, null);
  const turnStarted: NewRunEvent = { taskId: task.id, workflowInstanceId: scope.workflowInstanceId, agent: agent.name, kind: "turn-started", at: deps.now() };
  const conversation = await openFor(deps, agent, task, { events: [turnStarted], unlessStep: stepKey });
  const replayed = replayedStep(conversation, scope, stepKey);
  if (replayed) return replayed;
  return runModelStep(deps, scope, agent, task, conversation, turns, stepKey, true);
}

/**
 * `agent.answer`: the person's words become the result of the pending ask call; once no ask of
 * that step is pending the agent carries on from the whole conversation. An ask that already has
 * its result is never answered again. A named question is written and the conversation read in one
 * statement; without a name, the conversation is read first to find its one open ask.
 */
export function answerAgent(
  deps: TurnDependencies,
  scope: TurnScope,
  agent: Agent,
  task: TaskReference,
  text: string,
  options: { questionId?: string } = {},
): Promise<AgentReply> {
  return inSpan(`parley.turn ${agent.name}`, { "parley.agent": agent.name, "parley.task_id": task.id, "parley.turn.kind": "answer" }, () => answerAgentNow(deps, scope, agent, task, text, options));
}

async function answerAgentNow(
  deps: TurnDependencies,
  scope: TurnScope,
  agent: Agent,
  task: TaskReference,
  text: string,
  options: { questionId?: string },
): Promise<AgentReply> {
  if (agent.memory !== "persistent") {
    throw new AppError("not_parked", `${agent.name} keeps no memory, so nothing of it is waiting for an answer.`);
  }
  const stepKey = scope.nextStepKey();
  let targetId = options.questionId;
  if (!targetId) {
    const conversation = await openFor(deps, agent, task);
    const replayed = replayedStep(conversation, scope, stepKey);
    if (replayed) return replayed;
    const open = conversation.openAsks;
    if (open.length > 1) throw new AppError("invalid_input", `${agent.name} is waiting on ${open.length} questions; say which one this answers.`);
    if (!open[0]) return carryOn(deps, scope, agent, task, conversation, stepKey);
    targetId = open[0].id;
  }

  const at = deps.now();
  const base = { taskId: task.id, workflowInstanceId: scope.workflowInstanceId, agent: agent.name, at };
  // Written with the answer only when nothing else is pending: the run resumes and the agent's next turn starts now.
  const resumed: NewRunEvent[] = [
    { ...base, kind: "resumed", data: { questionId: targetId } },
    { ...base, kind: "turn-started" },
  ];
  const cached = deps.conversations.get(agent.name, task.id);
  const askId = targetId;
  const recorded = await deps.commit(
    async (tx) => {
      const written = await recordAnswer(tx, { agent: agent.name, taskId: task.id, askId, toolName: ASK_TOOL_NAME, text, afterSeq: cached?.messages.at(-1)?.seq ?? 0, events: resumed, at });
      return { value: written, changes: written?.seq != null ? [{ kind: "question-answered", taskId: task.id, questionId: askId, userIds: [] }] : [] };
    },
    { oneStatement: true },
  );
  if (!recorded) throw new AppError("not_parked", `${agent.name} is not waiting for an answer on this task.`);
  const conversation = await absorb(deps, agent, task, cached, recorded.conversation);
  const replayed = replayedStep(conversation, scope, stepKey);
  if (replayed) return replayed;

  const open = conversation.openAsks;
  const wasOpen = open.some((ask) => ask.id === askId);
  const remaining = open.filter((ask) => ask.id !== askId);
  if (wasOpen && remaining.length > 0) {
    if (recorded.seq !== null && recorded.message) remember(deps, agent, task, conversation, [{ seq: recorded.seq, message: recorded.message, stepKey: null }]);
    return replyFrom(remaining.map(toQuestion), "");
  }
  if (!wasOpen) {
    // The named question already has its answer (this handler ran before): still waiting on the rest, or carrying on.
    if (open.length > 0) return replyFrom(open.map(toQuestion), "");
    return carryOn(deps, scope, agent, task, conversation, stepKey);
  }
  if (recorded.seq === null || !recorded.message) {
    // Someone else wrote this answer meanwhile: carry on from what they wrote.
    return runModelStep(deps, scope, agent, task, await openFor(deps, agent, task), [], stepKey);
  }
  const current = remember(deps, agent, task, { ...conversation, openAsks: remaining }, [{ seq: recorded.seq, message: recorded.message, stepKey: null }]);
  if (current.messages.at(-1)?.message !== recorded.message) return runModelStep(deps, scope, agent, task, await openFor(deps, agent, task), [], stepKey, true);
  return runModelStep(deps, scope, agent, task, current, [], stepKey, true);
}

/** Nothing open: the agent carries on only if the last thing said is an answer the model has not seen yet. */
function carryOn(deps: TurnDependencies, scope: TurnScope, agent: Agent, task: TaskReference, conversation: Conversation, stepKey: string | null): Promise<AgentReply> {
  if (conversation.messages.at(-1)?.message.role !== "tool") {
    throw new AppError("not_parked", `${agent.name} is not waiting for an answer on this task.`);
  }
  return runModelStep(deps, scope, agent, task, conversation, [], stepKey);
}
