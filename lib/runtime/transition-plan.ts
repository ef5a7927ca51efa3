import type { CancelledQuestion, StateEntry } from "@/db/queries/enter-state";
import type { RoutedGroup, RoutedPerson } from "@/db/queries/group-routing";
import type { NewRunEvent } from "@/db/queries/runtime-events";
import type { TrackedTableColumns } from "@/db/queries/runtime-jobs";
import type { NewSlot } from "@/db/queries/runtime-slots";
import type { NothingReason, RunStatus } from "@/db/schema";
import { nothingText } from "./agent-question";
import type { RuntimeChange } from "./announce";
import { durationToMilliseconds } from "./duration";
import { planEscalation, stepsOfEscalation } from "./escalation";
import { waitersOf } from "./recipients";
import type { EventSchemas, Recipient, StateDefinition, Subscription } from "./types";

/**
 * The plan of one transition, worked out without the database: what entering a state means — the
 * run's status, whether the move must reach the disk before it is acknowledged, the job that runs
 * the state's `enter`, the slots it opens (who waits, by when, with which escalation steps), what
 * happens to the asks and slots of the state it leaves, and the events that record it — from facts
 * read beforehand (lib/runtime/transitions.ts reads them; db/queries/enter-state.ts commits the plan
 * as one statement). Every rule here is unit-tested alone (tests/unit/runtime/transition-plan.test.ts).
 */

/** A state's definition as the planner reads it. */
export type PlannedState = Pick<StateDefinition<string, EventSchemas, unknown>, "terminal" | "message" | "enter" | "subscribe">;

/** One wait the state subscribes to, as its code named who waits. */
export interface WaitFacts {
  event: string;
  subscription: Pick<Subscription<string, unknown>, "as" | "within" | "escalate">;
  /** What the subscription's `assignee` returned (null when it has none). */
  assignee: string | null;
  /** What its `candidates` returned: user ids and groups. */
  candidates: readonly Recipient[];
  /** The id the slot gets: made before planning, so that a plan is a value. */
  slotId: string;
}

/** Everything a transition is planned from. */
export interface TransitionFacts {
  workflow: { name: string; tracks: TrackedTableColumns; fingerprint: string };
  /** Where the run is moved from: `state` null for a run being started; `jobId` the job moving it, if any. */
  from: { instanceId: string; taskId: string; state: string | null; version: number; jobId?: number };
  to: string;
  state: PlannedState;
  /** Whether the move creates the run (starting it). */
  create: boolean;
  /** Whether the move commits inside a transaction the caller holds (its durability is then the caller's). */
  inCallersTransaction: boolean;
  workerId: string;
  at: Date;
  /** The state's waits, in the order it subscribes to them. */
  waits: readonly WaitFacts[];
  /** The people the waits name, as they are now (away, deactivated, their delegate). */
  people: readonly RoutedPerson[];
  /** The groups the waits and their escalation steps name, with their members counted. */
  groups: readonly RoutedGroup[];
}

/** A planned transition. */
export interface TransitionPlan {
  /** What the one statement commits (db/queries/enter-state.ts). */
  entry: StateEntry;
  /**
   * Why nobody can take the first new slot's wait (everyone named is away with no delegate, or
   * deactivated), or null: an agent's ask handed to that slot then ends with nothing at once, in the
   * same transaction (a second statement), as a flow's question put to nobody does.
   */
  nobody: NothingReason | null;
}

/** The run status a state means: a terminal state ends the run, a state that waits for events waits, any other runs. */
export function statusOf(state: PlannedState): RunStatus {
  if (state.terminal === "success") return "completed";
  if (state.terminal === "error") return "failed";
  return state.subscribe && Object.keys(state.subscribe).length > 0 ? "waiting" : "running";
}

/** The run events entering a state appends: started (when it creates the run), the state entered, each slot opened, and how it ended. */
export function eventsOfEntering(
  move: { workflow: { name: string }; from: { instanceId: string; taskId: string; state: string | null }; to: string; create: boolean },
  state: Pick<PlannedState, "message">,
  status: RunStatus,
  slots: readonly NewSlot[],
  at: Date,
): NewRunEvent[] {
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
    ...(status === "completed" ? [{ ...base, kind: "completed" as const, data: { state: to, message: state.message ?? null }, at }] : []),
    ...(status === "failed" ? [{ ...base, kind: "failed" as const, data: { state: to, message: state.message ?? null }, at }] : []),
  ];
}

/** The slot one wait opens: who waits (away people's delegates in their place), its due time, its escalation steps. */
function slotOf(facts: TransitionFacts, wait: WaitFacts): { slot: NewSlot; nobody: NothingReason | null } {
  const { from, to, at } = facts;
  const waiters = waitersOf(wait.assignee, wait.candidates, facts.people, facts.groups);
  const dueAt = wait.subscription.within ? new Date(at.getTime() + durationToMilliseconds(wait.subscription.within)) : null;
  const where = `its state ${to}'s ${wait.event} wait`;
  const planned = planEscalation(wait.subscription.escalate, dueAt !== null, where);
  return {
    slot: {
      id: wait.slotId,
      workflowInstanceId: from.instanceId,
      workflow: facts.workflow.name,
      taskId: from.taskId,
      state: to,
      event: wait.event,
      role: wait.subscription.as ?? null,
      assigneeId: waiters.assigneeId,
      candidateIds: waiters.candidateIds,
      candidateGroupIds: waiters.candidateGroupIds,
      delegatedFrom: waiters.delegatedFrom,
      openedAt: at,
      dueAt,
      escalations: dueAt ? stepsOfEscalation(planned, at, dueAt, facts.groups, where) : [],
    },
    nobody: waiters.nobody,
  };
}

/**
 * Plans entering `facts.to`. The rules, each one place:
 * - the run's status is the state's ({@link statusOf}); a success state is refused while a question on the task is unanswered;
 * - a run's start and its end reach the disk before the move is acknowledged; a move between waiting and running
 *   of the runtime's own does not (a crash only runs its job again), nor one in a caller's transaction (the caller's commit decides);
 * - a state with `enter` queues the job that runs it;
 * - each wait opens a slot: its waiters ({@link waitersOf}), due `within` after the move, its escalation steps at fractions of that;
 * - the slots of the state it leaves close (`cancelled`); the questions still open on them end with nothing, reason
 *   `cancelled`, except an agent's asks, which are handed to the first new slot (their agent recorded on it) when there is one;
 * - the events: the run's start, the state entered, each slot opened, how the run ended ({@link eventsOfEntering});
 * - the job that made the move is finished by it, and the move is made only while that job is still the worker's.
 */
export function planTransition(facts: TransitionFacts): TransitionPlan {
  const { workflow, from, to, state, create, at } = facts;
  const planned = facts.waits.map((wait) => slotOf(facts, wait));
  const slots = planned.map((each) => each.slot);
  const status = statusOf(state);
  const ends = status === "completed" || status === "failed";
  const [first] = slots;
  return {
    entry: {
      instanceId: from.instanceId,
      taskId: from.taskId,
      tracks: workflow.tracks,
      to,
      status,
      fromVersion: from.version,
      ...(from.jobId !== undefined ? { job: { id: from.jobId, workerId: facts.workerId } } : {}),
      ...(create ? { create: { workflow: workflow.name } } : {}),
      // The run keeps which definition moved it, so a deploy that changes the workflow can tell the runs it breaks.
      definitionFingerprint: workflow.fingerprint,
      queueEnter: Boolean(state.enter),
      slots,
      // An agent's ask waiting for an answer is answered through the slot its workflow opens now.
      ...(first ? { linkAsksTo: { workflow: workflow.name, event: first.event } } : {}),
      onlyIfNothingWaits: status === "completed",
      relaxed: !create && !ends && !facts.inCallersTransaction,
      events: eventsOfEntering({ workflow, from, to, create }, state, status, slots, at),
      at,
    },
    nobody: planned[0]?.nobody ?? null,
  };
}

/** Who hears of a slot or a question: its assignee, its candidates and the members of its groups, once each. */
function partiesOf(waiters: { assigneeId: string | null; candidateIds: readonly string[] }, members: readonly string[] | undefined): string[] {
  return [...new Set([...(waiters.assigneeId ? [waiters.assigneeId] : []), ...waiters.candidateIds, ...(members ?? [])])];
}

/**
 * What a committed transition announces: the run's status; each agent ask handed to the first new
 * slot, to that slot's parties; each slot opened; each question it ended with nothing, to whom it was
 * put. `members` holds the members of the groups of each new slot and of each cancelled question's
 * slot, by slot id.
 */
export function changesOfEntering(
  plan: TransitionPlan,
  entered: { linkedAskIds: readonly string[]; cancelledQuestions: readonly CancelledQuestion[] },
  members: ReadonlyMap<string, readonly string[]>,
): RuntimeChange[] {
  const { taskId, status, slots } = plan.entry;
  const [first] = slots;
  const changes: RuntimeChange[] = [{ kind: "run-status", taskId, status, userIds: [] }];
  if (first) {
    for (const questionId of entered.linkedAskIds) changes.push({ kind: "question-asked", taskId, questionId, slotId: first.id, userIds: partiesOf(first, members.get(first.id)) });
  }
  for (const slot of slots) changes.push({ kind: "slot-opened", taskId, slotId: slot.id, userIds: partiesOf(slot, members.get(slot.id)) });
  // Questions left unanswered in the state it left ended with nothing (`cancelled`): their inboxes, and an API ask's caller, hear of it.
  for (const question of entered.cancelledQuestions) {
    changes.push({ kind: "question-closed", taskId, questionId: question.questionId, slotId: question.slotId, userIds: partiesOf(question, members.get(question.slotId)) });
  }
  return changes;
}

/**
 * When nobody can take the first new slot ({@link TransitionPlan.nobody}), the agent's ask handed to
 * it ends with nothing at once: what closes it (db/queries/runtime-questions.ts' closeQuestionWithNothing), and
 * what that announces. Undefined when somebody can take it, or no ask was handed to it.
 */
export function nothingForNobody(
  plan: TransitionPlan,
  linkedAskIds: readonly string[],
  members: ReadonlyMap<string, readonly string[]>,
): { closing: { questionId: string; reason: NothingReason; payload: unknown; events: NewRunEvent[]; at: Date }; changes: RuntimeChange[] } | undefined {
  const { nobody } = plan;
  const [first] = plan.entry.slots;
  const [questionId] = linkedAskIds;
  if (!nobody || !first || !questionId) return undefined;
  const { taskId, instanceId, at } = plan.entry;
  const parties = partiesOf(first, members.get(first.id));
  return {
    closing: {
      questionId,
      reason: nobody,
      payload: { text: nothingText(nobody), questionId },
      events: [{ taskId, workflowInstanceId: instanceId, kind: "nothing", data: { questionId, reason: nobody, by: null }, at }],
      at,
    },
    changes: [
      { kind: "question-closed", taskId, questionId, userIds: parties },
      { kind: "slot-finished", taskId, slotId: first.id, userIds: parties },
    ],
  };
}
