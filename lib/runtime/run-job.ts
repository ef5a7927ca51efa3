import { type ClaimedJob, findTrackedItem, finishJob, TransitionRejectedError } from "@/db/queries/runtime-jobs";
import { answerAgent, askAgent, type TurnDependencies, type TurnScope } from "./agent-turns";
import { askPerson } from "./ask-person";
import { definitionError, namesAgent } from "./definition-errors";
import { recordJobFailure } from "./job-failures";
import { isAnswerEvent } from "./person";
import type { RuntimeContext } from "./runtime-context";
import { withRunScope } from "./run-scope";
import { inSpan, jobParent, SpanKind } from "./tracing";
import { moveTo, runHandleFor } from "./transitions";
import type { Agent, AnyWorkflow, RunHandle, Transition } from "./types";

/** What a claimed job is told of, for the caller to wrap its run in (see `RuntimeOptions.aroundJob`). */
export interface JobLabel {
  jobId: number;
  kind: string;
  instanceId: string;
  taskId: string;
  workflow: string;
  state: string;
}

/** What running a claimed job needs from its runtime. */
export interface JobRunnerContext extends RuntimeContext {
  /** What agent turns need (the model, the conversations read lately, the named moments a test stops at). */
  readonly turns: TurnDependencies;
  /** Starts renewing a job's lease; returns how to stop. */
  keepLease(job: ClaimedJob): () => void;
  /** Wraps the running of each claimed job: calls `run` once and returns what it returns. */
  aroundJob<T>(job: JobLabel, run: () => Promise<T>): Promise<T>;
}

/**
 * The state code a job runs, and what it returns: the `enter` body, the `unfinished` branch of an
 * expired wait (or, for a questionnaire's, its handler given nothing, reason `expired`), or the
 * handler of the event deposited — its payload checked against the event's schema first. A state or
 * event the workflow does not declare, a handler missing or a payload its schema refuses is a
 * definition error: the workflow is wrong.
 */
export async function callHandler(
  workflow: AnyWorkflow,
  job: Pick<ClaimedJob, "kind" | "state" | "payload">,
  run: RunHandle<string, unknown>,
): Promise<Transition<string> | undefined> {
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
export async function runJob(context: JobRunnerContext, job: ClaimedJob): Promise<boolean> {
  const { db, workerId, now } = context;
  const workflow = context.workflowNamed(job.workflow);
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
  const stopRenewing = context.keepLease(job);
  try {
    // In a span continuing the trace the job was queued in (the request that deposited an answer), whatever instance runs it.
    return await inSpan(
      `parley.job ${job.kind}`,
      { "parley.job.id": job.id, "parley.job.kind": job.kind, "parley.job.attempt": job.attempts, "parley.task_id": job.taskId, "parley.workflow": job.workflow, "parley.state": job.state },
      () => context.aroundJob({ jobId: job.id, kind: job.kind, instanceId: job.instanceId, taskId: job.taskId, workflow: job.workflow, state: job.state }, () => runClaimedJob(context, workflow, job)),
      { parent: jobParent(job.traceContext), kind: SpanKind.CONSUMER },
    );
  } finally {
    stopRenewing();
  }
}

/** Runs the job's state code in its run's scope and moves the run where it says; a failure is recorded, a lost lease left to whoever took it. */
async function runClaimedJob(context: JobRunnerContext, workflow: AnyWorkflow, job: ClaimedJob): Promise<boolean> {
  const { db, now, turns } = context;
  const item = "item" in job ? (job.item ?? undefined) : await findTrackedItem(db, workflow.tracks, job.taskId);
  await turns.checkpoint("job-claimed");
  const run = runHandleFor(workflow, job.taskId, job.state, item, now(), db);
  let step = 0;
  // Every claim counts an attempt, so a job claimed once has stored no step yet.
  const scope: TurnScope = { workflowInstanceId: job.instanceId, nextStepKey: () => `${job.id}:${step++}`, ranBefore: job.attempts > 1 };
  // The agents a workflow runs are those it names: a call to another is its mistake, found before the model is called.
  const named = (agent: Agent): void => {
    if (!namesAgent(workflow, agent)) throw definitionError(`its state ${job.state} calls agent ${agent.name}, which it does not name; add it to \`agents: { ${agent.name} }\``);
  };
  try {
    const transition = await withRunScope(
      {
        engine: {
          ask: async (agent, task, askTurns) => (named(agent), askAgent(turns, scope, agent, task, askTurns)),
          answer: async (agent, task, text, answerOptions) => (named(agent), answerAgent(turns, scope, agent, task, text, answerOptions)),
          askPerson: (handle, event, askOptions) => askPerson(context, { workflowInstanceId: job.instanceId, stepKey: scope.nextStepKey() }, handle, event, askOptions),
        },
      },
      () => callHandler(workflow, job, run),
    );
    if (!transition) {
      await finishJob(db, { id: job.id, workerId: context.workerId, at: now() });
      return true;
    }
    const from = { instanceId: job.instanceId, taskId: job.taskId, state: job.state, version: job.version, job };
    const moved = await moveTo(context, { workflow, from, to: transition.to, item, create: false });
    return moved.runnable;
  } catch (error) {
    // Another worker took this job over (our lease ran out) or moved the instance: theirs stands.
    if (error instanceof TransitionRejectedError) return true;
    await recordJobFailure(context, workflow, job, error);
    return true;
  }
}
