import { randomUUID } from "node:crypto";
import type { LanguageModel, ModelMessage } from "ai";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { listRunEvents } from "@/db/queries/runtime-events";
import {
  type ClaimedJob,
  claimNextJob,
  enterState,
  failJob,
  findTrackedItem,
  trackedRowReads,
  finishJob,
  releaseJob,
  renewJobLease,
  requeueFailedJobs,
  type StateEntered,
  TransitionRejectedError,
} from "@/db/queries/runtime-jobs";
import {
  depositIntoSlot,
  expireDueSlots,
  findSlotForExplanation,
  listAnswerableSlots,
  type NewSlot,
  slotParties,
  type SlotRow,
} from "@/db/queries/runtime-slots";
import { membersOf } from "@/db/queries/group-routing";
import { fireDueEscalations } from "@/db/queries/runtime-escalations";
import type { NothingReason, RunEvent, RunStatus } from "@/db/schema";
import { closeQuestionWithNothing } from "@/db/queries/runtime-questions";
import { AppError } from "@/lib/errors";
import type { AgentReply } from "./agent-reply";
import { answerAgent, askAgent, type Checkpoint, type TurnDependencies, type TurnScope } from "./agent-turns";
import type { Agent, TaskReference } from "./define-agent";
import type { AnyWorkflow, EventSchemas, RunHandle, StateDefinition, TrackedTable, Transition, Workflow } from "./define-workflow";
import { checkWorkflows, definitionError, definitionFailureIn, definitionFailureMessage, isDefinitionFailure } from "./definition-errors";
import { durationToMilliseconds } from "./duration";
import { escalationSteps, planEscalation } from "./escalation";
import { type Announce, type Commit, committer, type RuntimeChange } from "./announce";
import { askPerson, createQuestionDesk, type QuestionDesk } from "./answer-questions";
import { nothingText } from "./agent-question";
import { ConversationCache } from "./conversation-cache";
import { isAnswerEvent } from "./person";
import { createSlotReassigner, type SlotReassigner } from "./reassign-slot";
import { createSlotClaimer, type SlotClaimer } from "./claim-slot";
import { createRunCanceller, type RunCanceller } from "./cancel-run";
import { resolveWaiters } from "./recipients";
import { withRunScope } from "./run-scope";
import { workflowDefinition } from "./workflow-description";
import { inSpan, jobParent, SpanKind } from "./tracing";
import { newTimeOrderedId } from "@/lib/ids";

/** What a runtime is made of. Everything it touches is handed in, so a test can build a second one over the same database. */
export interface RuntimeOptions {
  db: Db;
  /** Every workflow this runtime may run jobs for. */
  workflows: readonly RegisteredWorkflow[];
  /** The clock; defaults to the system clock. */
  now?: () => Date;
  /** The model an agent without its own `model` runs on. */
  resolveModel?: (agent: Agent) => LanguageModel;
  /** Names this instance in job leases; defaults to a random id. */
  workerId?: string;
  /**
   * How long a claimed job stays this worker's without word from it: the worker renews the lease
   * while the job runs, so a worker that died has its jobs taken over this long after (default 30 s).
   */
  leaseMs?: number;
  /** How long one job may keep renewing its lease; a job hung longer is left to be taken over (default 15 min). */
  maxJobMs?: number;
  /** How long one model call may take before it fails the turn. */
  turnTimeoutMs?: number;
  /** Called at named moments; tests use it to stop a runtime dead, as a crash would. */
  checkpoint?: (point: Checkpoint) => void | Promise<void>;
  /**
   * Told of every question asked, answered or closed with nothing, every slot opened, finished or
   * expired and every run status change — once per transaction, inside it (e.g. to NOTIFY).
   */
  announce?: Announce;
  /**
   * Wraps the running of each claimed job (e.g. so that what is logged meanwhile names its run): call
   * `run` once and return what it returns. By default, runs it.
   */
  /** Told of each job this runtime took over from a worker whose lease on it ran out (e.g. to count them). */
  onLeaseTakeover?: (job: { kind: string; workflow: string; taskId: string }) => void;
  aroundJob?: <T>(job: { jobId: number; kind: string; instanceId: string; taskId: string; workflow: string; state: string }, run: () => Promise<T>) => Promise<T>;
}

/** Any declared workflow, as a runtime registers it. */
export interface RegisteredWorkflow {
  readonly name: string;
  readonly tracks: TrackedTable;
  readonly initial: string;
  /** Its states, for what screens call them (a state's `label`). */
  readonly states?: { readonly [state: string]: { readonly label?: string } };
}

/** A deposit: an event for a task's workflow, by a person. */
export interface Deposit<E extends EventSchemas, K extends keyof E & string> {
  taskId: string;
  event: K;
  payload: z.input<E[K]>;
  /** The user id of who is depositing. */
  by: string;
  /** A specific slot; by default, the task's open slot for this event. */
  slotId?: string;
}

/** A Parley runtime over one database: starts workflows, takes deposits, runs jobs, sweeps SLAs. */
export interface Runtime extends QuestionDesk, SlotReassigner, SlotClaimer, RunCanceller {
  readonly workerId: string;
  /**
   * Starts a workflow over a task (once per task; starting again does nothing). Pass the
   * transaction that creates the task as `db` to start it in the same commit.
   */
  start(workflow: { readonly name: string }, task: TaskReference, options?: { db?: Db }): Promise<{ started: boolean }>;
  /**
   * Deposits an event into the task's slot: exactly one deposit wins. The loser gets `conflict`
   * naming who answered and when; a caller who may not answer gets `forbidden`; a payload the
   * event's schema refuses gets `invalid_input` — and nothing is committed for any of them.
   */
  deposit<S extends string, E extends EventSchemas, I, K extends keyof E & string>(
    workflow: Workflow<S, E, I>,
    deposit: Deposit<E, K>,
  ): Promise<SlotRow>;
  /** Claims and runs one job; false when there was none. */
  runNextJob(): Promise<boolean>;
  /**
   * Runs jobs until none is runnable (or `maxJobs` ran); returns how many ran. With `concurrency`
   * above 1, that many jobs run at once (of different runs: a run's jobs never overlap, whoever
   * claims them), each lane claiming the next until it finds none — or, once `stopping` says so,
   * finishing the job it holds and claiming no more.
   */
  drain(options?: { maxJobs?: number; concurrency?: number; stopping?: () => boolean }): Promise<number>;
  /**
   * Runs the queued jobs of one task now, in this process, until it has none (or `maxJobs` ran) —
   * e.g. the ask a request has just started, so the request can say whether it is open or closed
   * with nothing. The worker would run them anyway: whichever claims a job runs it, once.
   */
  runJobsOf(taskId: string, options?: { maxJobs?: number }): Promise<number>;
  /**
   * Hands back the jobs this runtime holds and takes no more — what a stopping process does with the
   * jobs it could not finish within its bound. Each job in hand goes back to the queue with its lease
   * released, by one conditional UPDATE (a job that ended meanwhile, or that another worker took over,
   * is left alone), so the next claim of any worker takes it at once rather than a lease later; a
   * claim under way goes back as soon as it lands, unrun; and from then on nothing here claims a job
   * (runNextJob, drain and runJobsOf find none). Code still running a handed-back job here has
   * whatever it commits after refused, as after a lost lease. Resolves, with how many jobs went back,
   * once every claim under way has landed.
   */
  handBackJobs(): Promise<number>;
  /** Expires slots past their due time and queues their `unfinished` jobs; returns how many expired. */
  sweepExpiredSlots(): Promise<number>;
  /**
   * Fires the escalation steps that are due on open slots (each once, in order per slot, whichever
   * instance sweeps) and announces each as `slot-escalated`; returns how many slots it escalated.
   */
  sweepEscalations(): Promise<number>;
  /** The sweeps (expiry, then escalation) and then a drain (told by `stopping` when to claim no more): what a worker does each time it wakes. */
  tick(options?: { concurrency?: number; stopping?: () => boolean }): Promise<{ expired: number; escalated: number; jobs: number }>;
  /**
   * Queues a retryable task's failed work again; returns how many jobs. A run that stopped because
   * its workflow is wrong is never requeued: that refuses with `definition_error`, saying what is wrong.
   */
  retry(workflow: { readonly name: string }, taskId: string, options?: { by?: string }): Promise<number>;
  /** `agent.ask` outside a workflow's state code. */
  ask(agent: Agent, task: TaskReference, turns: readonly ModelMessage[]): Promise<AgentReply>;
  /** `agent.answer` outside a workflow's state code. */
  answer(agent: Agent, task: TaskReference, text: string, options?: { questionId?: string }): Promise<AgentReply>;
  /** The open slots a person may answer. */
  answerableSlots(userId: string): Promise<SlotRow[]>;
  /** A task's event stream, oldest first. */
  events(taskId: string): Promise<RunEvent[]>;
}

/** How many overdue slots one SLA sweep expires; a worker that expired this many sweeps again at once. */
export const SLA_SWEEP_BATCH = 100;

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_JOB_MS = 15 * 60_000;
const DEFAULT_TURN_TIMEOUT_MS = 2 * 60_000;

function statusOf(state: StateDefinition<string, EventSchemas, unknown>): RunStatus {
  if (state.terminal === "success") return "completed";
  if (state.terminal === "error") return "failed";
  return state.subscribe && Object.keys(state.subscribe).length > 0 ? "waiting" : "running";
}

/** A workflow tried to finish successfully while an agent's question on its task is still unanswered. */
export class StillWaitingError extends Error {
  readonly code = "still_waiting";
  constructor(workflow: string, state: string, questions: number) {
    super(
      `${workflow} went to ${state} while ${questions === 1 ? "a question is" : `${questions} questions are`} still waiting for an answer; ` +
        "branch on reply.parked and go to Waiting instead.",
    );
    this.name = "StillWaitingError";
  }
}

function codeOf(error: unknown): string | null {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Builds a runtime. Every registered workflow is checked first, at once (see {@link checkWorkflows}):
 * a mistake the types could not catch stops it here, with the workflow, the state and the fix named.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  checkWorkflows(options.workflows as readonly unknown[] as readonly AnyWorkflow[]);
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const workerId = options.workerId ?? `worker-${randomUUID()}`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const maxJobMs = options.maxJobMs ?? DEFAULT_MAX_JOB_MS;
  const registry = new Map<string, AnyWorkflow>();
  for (const workflow of options.workflows as readonly unknown[] as readonly AnyWorkflow[]) registry.set(workflow.name, workflow);
  // A claim reads the claimed run's tracked row in the same statement, for the tables whose rows read back from JSON.
  const rowReads = trackedRowReads([...registry.values()].map((workflow) => ({ name: workflow.name, tracks: workflow.tracks })));

  const commit = committer(db, options.announce);
  const aroundJob = options.aroundJob ?? ((_job, run) => run());
  const onLeaseTakeover = options.onLeaseTakeover ?? (() => {});
  const deps: TurnDependencies = {
    db,
    commit,
    conversations: new ConversationCache(),
    now,
    turnTimeoutMs: options.turnTimeoutMs ?? DEFAULT_TURN_TIMEOUT_MS,
    checkpoint: options.checkpoint ?? (() => {}),
    resolveModel:
      options.resolveModel ??
      ((agent) => {
        throw new AppError("model_unavailable", `No model is configured for ${agent.name}.`);
      }),
  };
  const deskDeps = { db, now, commit, workflowNamed: (name: string) => workflowNamed(name) };
  const desk = createQuestionDesk(deskDeps);
  const outsideJob: TurnScope = { workflowInstanceId: null, nextStepKey: () => null, ranBefore: false };

  function workflowNamed(name: string): AnyWorkflow {
    const workflow = registry.get(name);
    if (!workflow) throw new Error(`workflow ${name} is not registered with this runtime`);
    return workflow;
  }

  function runHandle(workflow: AnyWorkflow, taskId: string, state: string, item: unknown, at: Date, executor: Db = db): RunHandle<string, unknown> {
    return { item, taskId, workflow: workflow.name, state, db: executor, now: at, events: workflow.events, goto: (to) => ({ kind: "goto", to }) };
  }

  /** A commit inside a transaction the caller already holds: its statements run there, announced there. */
  function commitIn(executor: Db): Commit {
    if (executor === db) return commit;
    return async (work) => {
      const { value, changes } = await work(executor);
      if (options.announce && changes.length > 0) await options.announce(executor, changes);
      return value;
    };
  }

  /**
   * Works out everything entering `to` means, then commits it in one statement. Starting a run and
   * ending one are durable at once; a move between waiting and running commits without waiting for
   * the disk (nobody outside is told of it but screens, and a crash only runs its job again).
   */
  async function moveTo(
    workflow: AnyWorkflow,
    from: { instanceId: string; taskId: string; state: string | null; version: number; job?: ClaimedJob },
    to: string,
    item: unknown,
    create: boolean,
    executor: Db = db,
  ): Promise<{ runnable: boolean }> {
    const definition = workflow.states[to];
    if (!definition) throw definitionError(`${from.state ? `its state ${from.state} goes` : "it starts"} to ${JSON.stringify(to)}, which is not one of its states`);
    const at = now();
    const run = runHandle(workflow, from.taskId, to, item, at, executor);
    const base = { taskId: from.taskId, workflowInstanceId: from.instanceId };
    const slots: NewSlot[] = [];
    /** Why nobody can take a slot's wait, by slot id (someone away with no delegate, or deactivated). */
    const nobodyFor = new Map<string, NothingReason>();
    for (const [event, subscription] of Object.entries(definition.subscribe ?? {})) {
      if (!subscription) continue;
      // Someone away waits through the delegate they named; groups are kept by id, their members read live.
      const { assigneeId, candidateIds, candidateGroupIds, delegatedFrom, nobody } = await resolveWaiters(
        executor,
        (await subscription.assignee?.(run)) ?? null,
        (await subscription.candidates?.(run)) ?? [],
      );
      const id = newTimeOrderedId();
      if (nobody) nobodyFor.set(id, nobody);
      const dueAt = subscription.within ? new Date(at.getTime() + durationToMilliseconds(subscription.within)) : null;
      const where = `its state ${to}'s ${event} wait`;
      const planned = planEscalation(subscription.escalate, dueAt !== null, where);
      slots.push({
        id,
        workflowInstanceId: from.instanceId,
        workflow: workflow.name,
        taskId: from.taskId,
        state: to,
        event,
        role: subscription.as ?? null,
        assigneeId,
        candidateIds,
        candidateGroupIds,
        delegatedFrom,
        openedAt: at,
        dueAt,
        escalations: dueAt ? await escalationSteps(executor, planned, at, dueAt, where) : [],
      });
    }
    const status = statusOf(definition);
    const ends = status === "completed" || status === "failed";
    const members = new Map<string, string[]>();
    for (const slot of slots) if (slot.candidateGroupIds?.length) members.set(slot.id, await membersOf(executor, slot.candidateGroupIds));
    const parties = (slot: NewSlot) => [...new Set([...(slot.assigneeId ? [slot.assigneeId] : []), ...slot.candidateIds, ...(members.get(slot.id) ?? [])])];
    const [first] = slots;
    const entered = await commitIn(executor)<StateEntered>(
      async (tx) => {
        const result = await enterState(tx, {
          instanceId: from.instanceId,
          taskId: from.taskId,
          tracks: workflow.tracks,
          to,
          status,
          fromVersion: from.version,
          ...(from.job ? { job: { id: from.job.id, workerId } } : {}),
          ...(create ? { create: { workflow: workflow.name } } : {}),
          // The run keeps which definition moved it, so a deploy that changes the workflow can tell the runs it breaks.
          definitionFingerprint: workflowDefinition(workflow).fingerprint,
          queueEnter: Boolean(definition.enter),
          slots,
          // An agent's ask waiting for an answer is answered through the slot its workflow opens now.
          ...(first ? { linkAsksTo: { workflow: workflow.name, event: first.event } } : {}),
          onlyIfNothingWaits: status === "completed",
          relaxed: !create && !ends && executor === db,
          events: [
            ...(create ? [{ ...base, kind: "run-started" as const, data: { workflow: workflow.name }, at }] : []),
            { ...base, kind: "state-entered", data: { state: to, from: from.state }, at },
            ...slots.map((slot) => ({
              ...base,
              kind: "slot-opened" as const,
              data: { slotId: slot.id, event: slot.event, assigneeId: slot.assigneeId, candidates: slot.candidateIds.length, dueAt: slot.dueAt?.toISOString() ?? null },
              at,
            })),
            ...(status === "completed" ? [{ ...base, kind: "completed" as const, data: { state: to, message: definition.message ?? null }, at }] : []),
            ...(status === "failed" ? [{ ...base, kind: "failed" as const, data: { state: to, message: definition.message ?? null }, at }] : []),
          ],
          at,
        });
        if (!result.entered) return { value: result, changes: [] };
        const changes: RuntimeChange[] = [{ kind: "run-status", taskId: from.taskId, status, userIds: [] }];
        for (const questionId of result.linkedAskIds) {
          changes.push({ kind: "question-asked", taskId: from.taskId, questionId, slotId: first!.id, userIds: parties(first!) });
        }
        for (const slot of slots) changes.push({ kind: "slot-opened", taskId: from.taskId, slotId: slot.id, userIds: parties(slot) });
        // Questions left unanswered in the state it left ended with nothing (`cancelled`): their inboxes, and an API ask's caller, hear of it.
        for (const question of result.cancelledQuestions) {
          const groupMembers = question.candidateGroupIds?.length ? await membersOf(tx, question.candidateGroupIds) : [];
          const userIds = [...new Set([...(question.assigneeId ? [question.assigneeId] : []), ...(question.candidateIds ?? []), ...groupMembers])];
          changes.push({ kind: "question-closed", taskId: from.taskId, questionId: question.questionId, slotId: question.slotId, userIds });
        }
        // An agent's question put to nobody who can take it (away, deactivated) gets its nothing at once, as a flow's does.
        const nobody = first ? nobodyFor.get(first.id) : undefined;
        const [unanswerable] = nobody ? result.linkedAskIds : [];
        if (nobody && unanswerable) {
          const closed = await closeQuestionWithNothing(tx, {
            questionId: unanswerable,
            reason: nobody,
            payload: { text: nothingText(nobody), questionId: unanswerable },
            events: [{ ...base, kind: "nothing", data: { questionId: unanswerable, reason: nobody, by: null }, at }],
            at,
          });
          if (closed) {
            changes.push(
              { kind: "question-closed", taskId: from.taskId, questionId: unanswerable, userIds: parties(first!) },
              { kind: "slot-finished", taskId: from.taskId, slotId: first!.id, userIds: parties(first!) },
            );
            result.runnable = true;
          }
        }
        return { value: result, changes };
      },
      { oneStatement: !(first && nobodyFor.has(first.id)) },
    );
    if (entered.entered) return { runnable: entered.runnable };
    if (entered.waiting > 0) throw new StillWaitingError(workflow.name, to, entered.waiting);
    throw new TransitionRejectedError();
  }

  /** Renews a running job's lease until it ends (or has run for `maxJobMs`); returns how to stop. */
  function keepLease(job: ClaimedJob): () => void {
    const startedAt = performance.now();
    const timer = setInterval(
      () => {
        if (performance.now() - startedAt > maxJobMs) return clearInterval(timer);
        renewJobLease(db, { id: job.id, workerId, until: new Date(now().getTime() + leaseMs) }).catch(() => {
          // A failed renewal is tried again at the next beat; a lost lease shows at the job's own commit.
        });
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    timer.unref?.();
    return () => clearInterval(timer);
  }

  async function callHandler(workflow: AnyWorkflow, job: ClaimedJob, run: RunHandle<string, unknown>): Promise<Transition<string> | undefined> {
    const state = workflow.states[job.state];
    if (!state) throw definitionError(`the run is in the state ${JSON.stringify(job.state)}, which it no longer declares`);
    const payload = (job.payload ?? {}) as { event?: string; payload?: unknown };
    if (job.kind === "enter") return state.enter?.(run);
    const event = payload.event ?? "";
    if (job.kind === "expire") {
      const unfinished = state.subscribe?.[event]?.unfinished;
      if (unfinished) return unfinished(run);
      // A person's questionnaire that ran out of time: the flow's handler gets nothing, reason `expired`.
      const onAnswer = state.on?.[event];
      if (onAnswer && isAnswerEvent(workflow.events[event])) return onAnswer(run, { ok: false, reason: "expired" });
      return undefined;
    }
    const handler = state.on?.[event];
    const schema = workflow.events[event];
    if (!schema) throw definitionError(`its state ${job.state} received the event ${JSON.stringify(event)}, which it does not declare`);
    if (!handler) throw definitionError(`its state ${job.state} has no \`on: { ${event}(run, payload) }\` handler for the ${event} it received`);
    const parsed = schema.safeParse(payload.payload);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}`).join("; ");
      throw definitionError(`its state ${job.state} received a ${event} that does not match the event's schema (${issues})`);
    }
    return handler(run, parsed.data);
  }

  /**
   * Runs a claimed job; returns whether another job may be runnable now (false only when the job's
   * own last statement saw none), so a drain need not end with a claim that finds nothing.
   */
  async function runJob(job: ClaimedJob): Promise<boolean> {
    const workflow = workflowNamed(job.workflow);
    // A job queued for a state the instance has left has nothing left to do.
    if (job.state !== job.jobState) {
      await finishJob(db, { id: job.id, workerId, at: now() });
      return true;
    }
    // Nor has a job of a run an operator cancelled (lib/runtime/cancel-run.ts).
    if (job.status === "cancelled") {
      await finishJob(db, { id: job.id, workerId, at: now() });
      return true;
    }
    const stopRenewing = keepLease(job);
    try {
      // In a span continuing the trace the job was queued in (the request that deposited an answer), whatever instance runs it.
      return await inSpan(
        `parley.job ${job.kind}`,
        { "parley.job.id": job.id, "parley.job.kind": job.kind, "parley.job.attempt": job.attempts, "parley.task_id": job.taskId, "parley.workflow": job.workflow, "parley.state": job.state },
        () => aroundJob({ jobId: job.id, kind: job.kind, instanceId: job.instanceId, taskId: job.taskId, workflow: job.workflow, state: job.state }, () => runClaimedJob(workflow, job)),
        { parent: jobParent(job.traceContext), kind: SpanKind.CONSUMER },
      );
    } finally {
      stopRenewing();
    }
  }

  async function runClaimedJob(workflow: AnyWorkflow, job: ClaimedJob): Promise<boolean> {
    const item = "item" in job ? (job.item ?? undefined) : await findTrackedItem(db, workflow.tracks, job.taskId);
    await deps.checkpoint("job-claimed");
    const run = runHandle(workflow, job.taskId, job.state, item, now());
    let step = 0;
    // Every claim counts an attempt, so a job claimed once has stored no step yet.
    const scope: TurnScope = { workflowInstanceId: job.instanceId, nextStepKey: () => `${job.id}:${step++}`, ranBefore: job.attempts > 1 };
    try {
      const transition = await withRunScope(
        {
          engine: {
            ask: (agent, task, turns) => askAgent(deps, scope, agent, task, turns),
            answer: (agent, task, text, answerOptions) => answerAgent(deps, scope, agent, task, text, answerOptions),
            askPerson: (handle, event, askOptions) =>
              askPerson(deskDeps, { workflowInstanceId: job.instanceId, stepKey: scope.nextStepKey() }, handle, event, askOptions),
          },
        },
        () => callHandler(workflow, job, run),
      );
      if (!transition) {
        await finishJob(db, { id: job.id, workerId, at: now() });
        return true;
      }
      const moved = await moveTo(workflow, { instanceId: job.instanceId, taskId: job.taskId, state: job.state, version: job.version, job }, transition.to, item, false);
      return moved.runnable;
    } catch (error) {
      // Another worker took this job over (our lease ran out) or moved the instance: theirs stands.
      if (error instanceof TransitionRejectedError) return true;
      const at = now();
      // A workflow that is wrong fails the same way every time: the run ends `failed`, never retried.
      const retryable = !isDefinitionFailure(error);
      await commit(
        async (tx) => {
          const failed = await failJob(tx, {
            jobId: job.id,
            workerId,
            instanceId: job.instanceId,
            taskId: job.taskId,
            tracks: workflow.tracks,
            error: describe(error),
            retryable,
            events: [
              {
                taskId: job.taskId,
                workflowInstanceId: job.instanceId,
                kind: "failed",
                data: { state: job.state, job: job.kind, cause: describe(error), code: codeOf(error), retryable },
                at,
              },
            ],
            at,
          });
          return { value: failed, changes: failed ? [{ kind: "run-status", taskId: job.taskId, status: retryable ? "retryable" : "failed", userIds: [] }] : [] };
        },
        { oneStatement: true },
      );
      return true;
    }
  }

  /** The jobs this runtime holds, by id: each from the moment its claim's answer arrives until its run ends. */
  const inHand = new Map<number, ClaimedJob>();
  /** Claims sent and not answered yet; each settles once its job is in hand (or handed straight back, or there was none). */
  const claimsUnderWay = new Set<Promise<{ job?: ClaimedJob; handedBack: boolean }>>();
  /** Set by handBackJobs: no claim is sent any more, and one that lands goes straight back. */
  let handingBack = false;

  /**
   * Claims the next job and puts it in hand in the same step as the claim's answer arrives, so a job
   * is never held without the runtime knowing: a hand-back at any moment finds it.
   */
  function claim(taskId?: string): Promise<{ job?: ClaimedJob; handedBack: boolean }> {
    const claimed = claimNextJob(db, { workerId, at: now(), leaseMs, rows: rowReads, ...(taskId ? { taskId } : {}) }).then(async (job) => {
      if (!job) return { handedBack: false };
      if (handingBack) return { handedBack: await releaseJob(db, { id: job.id, workerId }).catch(() => false) };
      if (job.takenOver) onLeaseTakeover({ kind: job.kind, workflow: job.workflow, taskId: job.taskId });
      inHand.set(job.id, job);
      return { job, handedBack: false };
    });
    claimsUnderWay.add(claimed);
    const landed = () => void claimsUnderWay.delete(claimed);
    claimed.then(landed, landed);
    return claimed;
  }

  /** Claims and runs the next job (of one task, when given): none to claim, ran one, or ran one and saw nothing else runnable. */
  async function runNext(taskId?: string): Promise<"none" | "ran" | "ran-last"> {
    if (handingBack) return "none";
    const { job } = await claim(taskId);
    if (!job) return "none";
    try {
      // Handed back between its claim and this moment: not run here.
      if (handingBack) return "none";
      return (await runJob(job)) ? "ran" : "ran-last";
    } finally {
      inHand.delete(job.id);
    }
  }

  const runtime: Runtime = {
    workerId,

    async start(workflow, task, startOptions = {}) {
      const definition = workflowNamed(workflow.name);
      try {
        const from = { instanceId: newTimeOrderedId(), taskId: task.id, state: null, version: 0 };
        await moveTo(definition, from, definition.initial, task, true, startOptions.db ?? db);
        return { started: true };
      } catch (error) {
        if (error instanceof TransitionRejectedError) return { started: false };
        throw error;
      }
    },

    async deposit(workflow, deposit) {
      const definition = workflowNamed(workflow.name);
      const schema = definition.events[deposit.event];
      if (!schema) throw new AppError("invalid_input", `${workflow.name} has no event ${deposit.event}.`);
      // Refused payloads never reach the slot.
      const parsed = schema.safeParse(deposit.payload);
      if (!parsed.success) throw new AppError("invalid_input", parsed.error.issues.map((issue) => issue.message).join("; "));
      const selector = { workflow: workflow.name, taskId: deposit.taskId, event: deposit.event, ...(deposit.slotId ? { slotId: deposit.slotId } : {}) };
      const at = now();
      const won = await commit(async (tx) => {
        const slot = await depositIntoSlot(tx, { ...selector, by: deposit.by, payload: parsed.data, at });
        const userIds = slot ? slotParties(slot) : [];
        return { value: slot, changes: slot ? [{ kind: "slot-finished", taskId: slot.taskId, slotId: slot.id, userIds }] : [] };
      }, { oneStatement: true });
      if (won) return won;
      // The update decided; this read only explains the decision.
      const slot = await findSlotForExplanation(db, selector);
      if (!slot) throw new AppError("not_found", `There is no ${deposit.event} slot for this task.`);
      if (!slotParties(slot).includes(deposit.by)) throw new AppError("forbidden", `You may not answer this ${workflow.name} task.`);
      if (slot.status === "finished") {
        const who = slot.finishedByName ?? "someone else";
        throw new AppError("conflict", `Already answered by ${who} at ${slot.finishedAt?.toISOString()}.`);
      }
      if (slot.status === "expired" || (slot.dueAt && slot.dueAt <= at)) {
        throw new AppError("conflict", `This question closed unanswered at ${slot.dueAt?.toISOString()}.`);
      }
      throw new AppError("conflict", `This question is no longer open (${slot.status}).`);
    },

    async runNextJob() {
      return (await runNext()) !== "none";
    },

    async drain(drainOptions = {}) {
      const maxJobs = drainOptions.maxJobs ?? 1_000;
      let taken = 0;
      // One lane claims and runs a job at a time; a job is counted before it is claimed, so lanes never run more than maxJobs together.
      const lane = async () => {
        // A stopping worker claims nothing more: each lane finishes the job it holds and ends.
        while (taken < maxJobs && !drainOptions.stopping?.()) {
          taken++;
          const outcome = await runNext();
          if (outcome === "none") {
            taken--;
            return;
          }
          if (outcome === "ran-last") return;
        }
      };
      const lanes = Math.max(1, Math.floor(drainOptions.concurrency ?? 1));
      // Every lane ends before the drain does, even when one fails: the next tick never overlaps this one.
      const ended = await Promise.allSettled(Array.from({ length: lanes }, lane));
      const failed = ended.find((lane): lane is PromiseRejectedResult => lane.status === "rejected");
      if (failed) throw failed.reason;
      return taken;
    },

    async runJobsOf(taskId, runOptions = {}) {
      const maxJobs = runOptions.maxJobs ?? 100;
      let ran = 0;
      while (ran < maxJobs && (await runNext(taskId)) !== "none") ran++;
      return ran;
    },

    async handBackJobs() {
      handingBack = true;
      const held = [...inHand.values()];
      const landing = [...claimsUnderWay];
      // A release that fails (the database away) leaves the job to its lease, as before.
      const released = await Promise.all(held.map((job) => releaseJob(db, { id: job.id, workerId }).catch(() => false)));
      const landed = await Promise.all(landing.map((each) => each.then((claimed) => claimed.handedBack, () => false)));
      return [...released, ...landed].filter(Boolean).length;
    },

    sweepExpiredSlots() {
      return commit(async (tx) => {
        const expired = await expireDueSlots(tx, now(), SLA_SWEEP_BATCH);
        const changes = expired.map(
          (slot): RuntimeChange => ({
            kind: "slot-expired",
            taskId: slot.taskId,
            slotId: slot.id,
            userIds: slotParties(slot),
          }),
        );
        return { value: expired.length, changes };
      }, { oneStatement: true });
    },

    sweepEscalations() {
      return commit(async (tx) => {
        const fired = await fireDueEscalations(tx, now(), SLA_SWEEP_BATCH);
        const changes = fired.map(
          (step): RuntimeChange => ({
            kind: "slot-escalated",
            taskId: step.taskId,
            slotId: step.slotId,
            ...(step.questionId ? { questionId: step.questionId } : {}),
            userIds: slotParties(step),
            escalation: { step: step.step, action: step.action, percent: step.percent },
          }),
        );
        return { value: new Set(fired.map((step) => step.slotId)).size, changes };
      }, { oneStatement: true });
    },

    async tick(tickOptions = {}) {
      const expired = await runtime.sweepExpiredSlots();
      const escalated = await runtime.sweepEscalations();
      const jobs = tickOptions.stopping?.() ? 0 : await runtime.drain(tickOptions);
      return { expired, escalated, jobs };
    },

    async retry(workflow, taskId, options = {}) {
      const requeued = await commit(async (tx) => {
        const requeued = await requeueFailedJobs(tx, { workflow: workflow.name, taskId, tracks: workflowNamed(workflow.name).tracks, by: options.by ?? null, at: now() });
        return { value: requeued, changes: requeued > 0 ? [{ kind: "run-status", taskId, status: "running", userIds: [] }] : [] };
      }, { oneStatement: true });
      if (requeued > 0) return requeued;
      // Nothing to requeue: say so plainly when the run stopped because its workflow is wrong.
      const stopped = definitionFailureIn(await listRunEvents(db, taskId));
      if (stopped) throw new AppError("definition_error", definitionFailureMessage(workflow.name, stopped.cause));
      return 0;
    },

    ...desk,
    ...createSlotReassigner({ commit, now }),
    ...createSlotClaimer({ commit, now }),
    ...createRunCanceller({ commit, now, workflowNamed }),

    ask: (agent, task, turns) => askAgent(deps, outsideJob, agent, task, turns),
    answer: (agent, task, text, answerOptions) => answerAgent(deps, outsideJob, agent, task, text, answerOptions),
    answerableSlots: (userId) => listAnswerableSlots(db, userId),
    events: (taskId) => listRunEvents(db, taskId),
  };
  return runtime;
}
