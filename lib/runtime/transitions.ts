import type { Db } from "@/db/client";
import { membersOf } from "@/db/queries/group-routing";
import { type ClaimedJob, enterState, type StateEntered, TransitionRejectedError } from "@/db/queries/runtime-jobs";
import type { NewRunEvent } from "@/db/queries/runtime-events";
import { closeQuestionWithNothing } from "@/db/queries/runtime-questions";
import type { NewSlot } from "@/db/queries/runtime-slots";
import type { NothingReason, RunStatus } from "@/db/schema";
import { newTimeOrderedId } from "@/lib/ids";
import { nothingText } from "./agent-question";
import type { Commit, RuntimeChange } from "./announce";
import { definitionError } from "./definition-errors";
import { durationToMilliseconds } from "./duration";
import { escalationSteps, planEscalation } from "./escalation";
import { resolveWaiters } from "./recipients";
import type { RuntimeContext } from "./runtime-context";
import { workflowDefinition } from "./workflow-description";
import type { AnyWorkflow, EventSchemas, RunHandle, StateDefinition } from "./types";

/** What moving a run needs from its runtime. */
export type TransitionContext = Pick<RuntimeContext, "db" | "now" | "commit" | "announce" | "workerId">;

/** Where a run is moved from: its instance as last read (`state` null for one being started), and the job moving it, if any. */
export interface RunPosition {
  instanceId: string;
  taskId: string;
  state: string | null;
  version: number;
  job?: ClaimedJob;
}

/** One move of a run into a state. */
export interface Move {
  workflow: AnyWorkflow;
  from: RunPosition;
  to: string;
  /** The tracked row, handed to the new state's `assignee` and `candidates`. */
  item: unknown;
  /** Whether the move creates the run (starting it). */
  create: boolean;
  /** A transaction the caller holds, to commit in; by default the runtime's own database. */
  executor?: Db;
}

/** The run status a state means: a terminal state ends the run, a state that waits for events waits, any other runs. */
export function statusOf(state: StateDefinition<string, EventSchemas, unknown>): RunStatus {
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

/** What a state's code is handed for one run of `workflow`. */
export function runHandleFor(workflow: AnyWorkflow, taskId: string, state: string, item: unknown, at: Date, executor: Db): RunHandle<string, unknown> {
  return { item, taskId, workflow: workflow.name, state, db: executor, now: at, events: workflow.events, goto: (to) => ({ kind: "goto", to }) };
}

/** A commit inside a transaction the caller already holds: its statements run there, announced there. */
function commitIn(context: TransitionContext, executor: Db): Commit {
  if (executor === context.db) return context.commit;
  return async (work) => {
    const { value, changes } = await work(executor);
    if (context.announce && changes.length > 0) await context.announce(executor, changes);
    return value;
  };
}

/** The slots a state opens as it is entered, and why nobody can take a slot's wait (someone away with no delegate, or deactivated), by slot id. */
interface PlannedSlots {
  slots: NewSlot[];
  nobodyFor: Map<string, NothingReason>;
}

/** Works out the slots of each wait the state subscribes to: who waits on it, its due time and its escalation steps. */
async function planSlots(move: Move, definition: StateDefinition<string, EventSchemas, unknown>, run: RunHandle<string, unknown>, executor: Db, at: Date): Promise<PlannedSlots> {
  const { workflow, from, to } = move;
  const slots: NewSlot[] = [];
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
  return { slots, nobodyFor };
}

/** The run events entering a state appends: started (when it creates the run), the state entered, each slot opened, and how it ended. */
export function eventsOfEntering(move: Pick<Move, "workflow" | "from" | "to" | "create">, definition: Pick<StateDefinition<string, EventSchemas, unknown>, "message">, status: RunStatus, slots: readonly NewSlot[], at: Date): NewRunEvent[] {
  const { workflow, from, to, create } = move;
  const base = { taskId: from.taskId, workflowInstanceId: from.instanceId };
  return [
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
  ];
}

/**
 * Works out everything entering `to` means, then commits it in one statement. Starting a run and
 * ending one are durable at once; a move between waiting and running commits without waiting for
 * the disk (nobody outside is told of it but screens, and a crash only runs its job again).
 */
export async function moveTo(context: TransitionContext, move: Move): Promise<{ runnable: boolean }> {
  const { workflow, from, to, item, create } = move;
  const executor = move.executor ?? context.db;
  const definition = workflow.states[to];
  if (!definition) throw definitionError(`${from.state ? `its state ${from.state} goes` : "it starts"} to ${JSON.stringify(to)}, which is not one of its states`);
  const at = context.now();
  const run = runHandleFor(workflow, from.taskId, to, item, at, executor);
  const base = { taskId: from.taskId, workflowInstanceId: from.instanceId };
  const { slots, nobodyFor } = await planSlots(move, definition, run, executor, at);
  const status = statusOf(definition);
  const ends = status === "completed" || status === "failed";
  const members = new Map<string, string[]>();
  for (const slot of slots) if (slot.candidateGroupIds?.length) members.set(slot.id, await membersOf(executor, slot.candidateGroupIds));
  const parties = (slot: NewSlot) => [...new Set([...(slot.assigneeId ? [slot.assigneeId] : []), ...slot.candidateIds, ...(members.get(slot.id) ?? [])])];
  const [first] = slots;
  const entered = await commitIn(context, executor)<StateEntered>(
    async (tx) => {
      const result = await enterState(tx, {
        instanceId: from.instanceId,
        taskId: from.taskId,
        tracks: workflow.tracks,
        to,
        status,
        fromVersion: from.version,
        ...(from.job ? { job: { id: from.job.id, workerId: context.workerId } } : {}),
        ...(create ? { create: { workflow: workflow.name } } : {}),
        // The run keeps which definition moved it, so a deploy that changes the workflow can tell the runs it breaks.
        definitionFingerprint: workflowDefinition(workflow).fingerprint,
        queueEnter: Boolean(definition.enter),
        slots,
        // An agent's ask waiting for an answer is answered through the slot its workflow opens now.
        ...(first ? { linkAsksTo: { workflow: workflow.name, event: first.event } } : {}),
        onlyIfNothingWaits: status === "completed",
        relaxed: !create && !ends && executor === context.db,
        events: eventsOfEntering(move, definition, status, slots, at),
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
