import { randomUUID } from "node:crypto";
import type { LanguageModel, ModelMessage } from "ai";
import type { Db } from "@/db/client";
import { listRunEvents } from "@/db/queries/runtime-events";
import { claimNextJob, releaseJob, renewJobLease, trackedRowReads, TransitionRejectedError } from "@/db/queries/runtime-jobs";
import { listAnswerableSlots, type SlotRow } from "@/db/queries/runtime-slots";
import type { RunEvent } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { newTimeOrderedId } from "@/lib/ids";
import { answerAgent, askAgent, type Checkpoint, type TurnDependencies, type TurnScope } from "./agent-turns";
import { type Announce, committer } from "./announce";
import { createQuestionDesk, type QuestionDesk } from "./answer-questions";
import { createRunCanceller, type RunCanceller } from "./cancel-run";
import { createSlotClaimer, type SlotClaimer } from "./claim-slot";
import { ConversationCache } from "./conversation-cache";
import { checkWorkflows } from "./definition-errors";
import { type Deposit, depositEvent } from "./deposit";
import { retryRun } from "./job-failures";
import { keepLease, systemLeaseClock } from "./job-lease";
import { createJobLoop, type JobLoop } from "./job-loop";
import { createSlotReassigner, type SlotReassigner } from "./reassign-slot";
import { type JobLabel, type JobRunnerContext, runJob } from "./run-job";
import { type RuntimeContext, workflowLookup } from "./runtime-context";
import { createSweeps, type Sweeps } from "./sweeps";
import { moveTo } from "./transitions";
import type { Agent, AgentReply, AnyWorkflow, EventSchemas, TaskReference, TrackedTable, Workflow, WorkflowAgents } from "./types";

export type { Deposit } from "./deposit";
export { SLA_SWEEP_BATCH } from "./sweeps";

/*
 * The runtime's façade: it builds the shared context once and wires the named parts —
 * transitions.ts (entering a state), run-job.ts (running one claimed job), job-loop.ts (claiming,
 * holding and handing back jobs), job-lease.ts, job-failures.ts (a failed job, a retry), sweeps.ts
 * (SLA expiry, escalation), deposit.ts, the question desk (answer-questions.ts) and the slot and
 * run changes (reassign-slot.ts, claim-slot.ts, cancel-run.ts) — into one {@link Runtime}.
 */

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
  /** Told of each job this runtime took over from a worker whose lease on it ran out (e.g. to count them). */
  onLeaseTakeover?: (job: { kind: string; workflow: string; taskId: string }) => void;
  /**
   * Wraps the running of each claimed job (e.g. so that what is logged meanwhile names its run): call
   * `run` once and return what it returns. By default, runs it.
   */
  aroundJob?: <T>(job: JobLabel, run: () => Promise<T>) => Promise<T>;
}

/** Any declared workflow, as a runtime registers it. */
export interface RegisteredWorkflow {
  readonly name: string;
  readonly tracks: TrackedTable;
  readonly initial: string;
  /** Its states, for what screens call them (a state's `label`). */
  readonly states?: { readonly [state: string]: { readonly label?: string } };
  /** The agents its state code calls, by name: a runtime's agents are its workflows'. */
  readonly agents?: WorkflowAgents;
}

/** A Parley runtime over one database: starts workflows, takes deposits, runs jobs, sweeps SLAs. */
export interface Runtime extends QuestionDesk, SlotReassigner, SlotClaimer, RunCanceller, JobLoop, Sweeps {
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

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_JOB_MS = 15 * 60_000;
const DEFAULT_TURN_TIMEOUT_MS = 2 * 60_000;

/**
 * Builds a runtime. Every registered workflow is checked first, at once, with the agents they name
 * (see {@link checkWorkflows}; a registry's list was checked when it was built): a mistake the types
 * could not catch stops it here, with the workflow, the state and the fix named.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const workflows = options.workflows as readonly unknown[] as readonly AnyWorkflow[];
  checkWorkflows(workflows);
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const workerId = options.workerId ?? `worker-${randomUUID()}`;
  const lease = { leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, maxJobMs: options.maxJobMs ?? DEFAULT_MAX_JOB_MS };
  const context: RuntimeContext = { db, now, commit: committer(db, options.announce), announce: options.announce, workerId, workflowNamed: workflowLookup(workflows) };
  const turns: TurnDependencies = {
    db,
    commit: context.commit,
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
  const leaseClock = systemLeaseClock(now);
  const jobContext: JobRunnerContext = {
    ...context,
    turns,
    keepLease: (job) => keepLease((until) => renewJobLease(db, { id: job.id, workerId, until }), lease, leaseClock),
    aroundJob: options.aroundJob ?? ((_job, run) => run()),
  };
  // A claim reads the claimed run's tracked row in the same statement, for the tables whose rows read back from JSON.
  const rowReads = trackedRowReads(workflows.map((workflow) => ({ name: workflow.name, tracks: workflow.tracks })));
  const loop = createJobLoop({
    claimNext: (taskId) => claimNextJob(db, { workerId, at: now(), leaseMs: lease.leaseMs, rows: rowReads, ...(taskId ? { taskId } : {}) }),
    release: (job) => releaseJob(db, { id: job.id, workerId }),
    runJob: (job) => runJob(jobContext, job),
    onLeaseTakeover: options.onLeaseTakeover ?? (() => {}),
  });
  const outsideJob: TurnScope = { workflowInstanceId: null, nextStepKey: () => null, ranBefore: false };

  const runtime: Runtime = {
    workerId,

    async start(workflow, task, startOptions = {}) {
      const definition = context.workflowNamed(workflow.name);
      try {
        const from = { instanceId: newTimeOrderedId(), taskId: task.id, state: null, version: 0 };
        await moveTo(context, { workflow: definition, from, to: definition.initial, item: task, create: true, executor: startOptions.db ?? db });
        return { started: true };
      } catch (error) {
        if (error instanceof TransitionRejectedError) return { started: false };
        throw error;
      }
    },

    deposit: (workflow, deposit) => depositEvent(context, workflow.name, deposit),

    ...loop,
    ...createSweeps(context),

    async tick(tickOptions = {}) {
      const expired = await runtime.sweepExpiredSlots();
      const escalated = await runtime.sweepEscalations();
      const jobs = tickOptions.stopping?.() ? 0 : await runtime.drain(tickOptions);
      return { expired, escalated, jobs };
    },

    async retry(workflow, taskId, retryOptions = {}) {
      return retryRun(context, context.workflowNamed(workflow.name), taskId, retryOptions.by ?? null);
    },

    ...createQuestionDesk(context),
    ...createSlotReassigner(context),
    ...createSlotClaimer(context),
    ...createRunCanceller(context),

    ask: (agent, task, askTurns) => askAgent(turns, outsideJob, agent, task, askTurns),
    answer: (agent, task, text, answerOptions) => answerAgent(turns, outsideJob, agent, task, text, answerOptions),
    answerableSlots: (userId) => listAnswerableSlots(db, userId),
    events: (taskId) => listRunEvents(db, taskId),
  };
  return runtime;
}
