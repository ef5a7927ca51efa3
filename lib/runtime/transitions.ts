import type { Db } from "@/db/client";
import { enterState, type StateEntered } from "@/db/queries/enter-state";
import { findGroupsForRouting, membersOf } from "@/db/queries/group-routing";
import { type ClaimedJob, TransitionRejectedError } from "@/db/queries/runtime-jobs";
import { closeQuestionWithNothing } from "@/db/queries/runtime-questions";
import { newTimeOrderedId } from "@/lib/ids";
import type { Commit } from "./announce";
import { definitionError } from "./definition-errors";
import { peopleForRouting } from "./recipients";
import type { RuntimeContext } from "./runtime-context";
import { changesOfEntering, nothingForNobody, type PlannedState, planTransition, type TransitionFacts, type WaitFacts } from "./transition-plan";
import { workflowDefinition } from "./workflow-description";
import type { AnyWorkflow, GroupRecipient, RunHandle } from "./types";

export { eventsOfEntering, statusOf } from "./transition-plan";

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

/**
 * Reads what planning a move needs: who each wait names (the state's own `assignee` and
 * `candidates`, handed the run), and those people and groups as they are now — one read each for all
 * the waits, escalation groups included.
 */
async function readFacts(context: TransitionContext, move: Move, definition: PlannedState, executor: Db, at: Date): Promise<TransitionFacts> {
  const { workflow, from, to, item, create } = move;
  const run = runHandleFor(workflow, from.taskId, to, item, at, executor);
  const waits: WaitFacts[] = [];
  for (const [event, subscription] of Object.entries(definition.subscribe ?? {})) {
    if (!subscription) continue;
    const assignee = (await subscription.assignee?.(run)) ?? null;
    const candidates = (await subscription.candidates?.(run)) ?? [];
    waits.push({ event, subscription, assignee, candidates, slotId: newTimeOrderedId() });
  }
  const personIds = waits.flatMap((wait) => [...(wait.assignee ? [wait.assignee] : []), ...wait.candidates.filter((each): each is string => typeof each === "string")]);
  const groupNames = waits.flatMap((wait) => [
    ...wait.candidates.filter((each): each is GroupRecipient => typeof each !== "string").map((each) => each.group),
    ...(Array.isArray(wait.subscription.escalate) ? wait.subscription.escalate.flatMap((step) => (typeof step.addGroup === "string" ? [step.addGroup] : [])) : []),
  ]);
  return {
    workflow: { name: workflow.name, tracks: workflow.tracks, fingerprint: workflowDefinition(workflow).fingerprint },
    from: { instanceId: from.instanceId, taskId: from.taskId, state: from.state, version: from.version, ...(from.job ? { jobId: from.job.id } : {}) },
    to,
    state: definition,
    create,
    inCallersTransaction: executor !== context.db,
    workerId: context.workerId,
    at,
    waits,
    people: await peopleForRouting(executor, personIds),
    groups: await findGroupsForRouting(executor, groupNames),
  };
}

/** The members of the groups of `waits` (new slots, or questions' slots), by slot id: one read per slot put to groups. */
async function groupMembersBySlot(executor: Db, waits: readonly { slotId: string; candidateGroupIds?: readonly string[] | null }[]): Promise<Map<string, string[]>> {
  const members = new Map<string, string[]>();
  for (const wait of waits) if (wait.candidateGroupIds?.length) members.set(wait.slotId, await membersOf(executor, wait.candidateGroupIds));
  return members;
}

/**
 * Plans entering `to` (lib/runtime/transition-plan.ts), then commits it in one statement
 * (db/queries/enter-state.ts). Starting a run and ending one are durable at once; a move between
 * waiting and running commits without waiting for the disk (nobody outside is told of it but screens,
 * and a crash only runs its job again).
 */
export async function moveTo(context: TransitionContext, move: Move): Promise<{ runnable: boolean }> {
  const { workflow, from, to } = move;
  const executor = move.executor ?? context.db;
  const definition = workflow.states[to];
  if (!definition) throw definitionError(`${from.state ? `its state ${from.state} goes` : "it starts"} to ${JSON.stringify(to)}, which is not one of its states`);
  const plan = planTransition(await readFacts(context, move, definition, executor, context.now()));
  const slotMembers = await groupMembersBySlot(executor, plan.entry.slots.map((slot) => ({ slotId: slot.id, candidateGroupIds: slot.candidateGroupIds })));
  const entered = await commitIn(context, executor)<StateEntered>(
    async (tx) => {
      const result = await enterState(tx, plan.entry);
      if (!result.entered) return { value: result, changes: [] };
      const members = new Map([...slotMembers, ...(await groupMembersBySlot(tx, result.cancelledQuestions))]);
      const changes = changesOfEntering(plan, result, members);
      // An agent's question put to nobody who can take it (away, deactivated) gets its nothing at once, as a flow's does.
      const nothing = nothingForNobody(plan, result.linkedAskIds, members);
      if (nothing && (await closeQuestionWithNothing(tx, nothing.closing))) {
        changes.push(...nothing.changes);
        result.runnable = true;
      }
      return { value: result, changes };
    },
    { oneStatement: plan.nobody === null },
  );
  if (entered.entered) return { runnable: entered.runnable };
  if (entered.waiting > 0) throw new StillWaitingError(workflow.name, to, entered.waiting);
  throw new TransitionRejectedError();
}
