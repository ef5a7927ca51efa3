import { describe, expect, it } from "vitest";
import type { RoutedGroup, RoutedPerson } from "@/db/queries/group-routing";
import type { TrackedTableColumns } from "@/db/queries/runtime-jobs";
import { group } from "@/lib/runtime";
import { changesOfEntering, nothingForNobody, type PlannedState, planTransition, type TransitionFacts, type WaitFacts } from "@/lib/runtime/transition-plan";

const AT = new Date("2026-11-10T09:00:00.000Z");
const HOUR = 3_600_000;
const ADA = "00000000-0000-4000-8000-00000000000a";
const BO = "00000000-0000-4000-8000-00000000000b";
const CY = "00000000-0000-4000-8000-00000000000c";
const FINANCE = "00000000-0000-4000-8000-0000000000f1";
const LEGAL = "00000000-0000-4000-8000-0000000000f2";

const present = (id: string): RoutedPerson => ({ id, away: false, deactivated: false, presentDelegateId: null });
const financeGroup: RoutedGroup = { id: FINANCE, name: "finance", members: 2, present: 2, away: 0 };
const legalGroup: RoutedGroup = { id: LEGAL, name: "legal", members: 1, present: 1, away: 0 };

function wait(overrides: Partial<WaitFacts> = {}): WaitFacts {
  return { event: "Answered", subscription: {}, assignee: ADA, candidates: [ADA], slotId: "slot-1", ...overrides };
}

function facts(overrides: Partial<TransitionFacts> = {}, state: PlannedState = {}): TransitionFacts {
  return {
    workflow: { name: "FileTask", tracks: {} as TrackedTableColumns, fingerprint: "fp-1" },
    from: { instanceId: "instance-1", taskId: "task-1", state: "Running", version: 3 },
    to: "Next",
    state,
    create: false,
    inCallersTransaction: false,
    workerId: "worker-1",
    at: AT,
    waits: [],
    people: [present(ADA), present(BO), present(CY)],
    groups: [financeGroup, legalGroup],
    ...overrides,
  };
}

const waiting: PlannedState = { subscribe: { Answered: {} } };

describe("planning a transition: the move itself", () => {
  it("moves the run from the version it was read at, recording the definition that moved it", () => {
    const { entry } = planTransition(facts());
    expect(entry).toMatchObject({ instanceId: "instance-1", taskId: "task-1", to: "Next", fromVersion: 3, definitionFingerprint: "fp-1", at: AT });
    expect(entry.create).toBeUndefined();
  });

  it("creates the run when the move starts it", () => {
    expect(planTransition(facts({ create: true, from: { instanceId: "i", taskId: "t", state: null, version: 0 } })).entry.create).toEqual({ workflow: "FileTask" });
  });

  it("finishes the job that made the move, only while this worker still holds it", () => {
    const { entry } = planTransition(facts({ from: { instanceId: "instance-1", taskId: "task-1", state: "Running", version: 3, jobId: 42 } }));
    expect(entry.job).toEqual({ id: 42, workerId: "worker-1" });
    expect(planTransition(facts()).entry.job).toBeUndefined();
  });

  it("queues the job that runs the state's enter, and none for a state without one", () => {
    expect(planTransition(facts({}, { enter: () => undefined })).entry.queueEnter).toBe(true);
    expect(planTransition(facts({}, waiting)).entry.queueEnter).toBe(false);
  });

  it("refuses a success state while a question on the task waits, and no other state", () => {
    expect(planTransition(facts({}, { terminal: "success" })).entry.onlyIfNothingWaits).toBe(true);
    expect(planTransition(facts({}, { terminal: "error" })).entry.onlyIfNothingWaits).toBe(false);
    expect(planTransition(facts({}, waiting)).entry.onlyIfNothingWaits).toBe(false);
  });
});

describe("planning a transition: what must reach the disk before it is acknowledged", () => {
  it("a run's start and its end are durable at once", () => {
    expect(planTransition(facts({ create: true }, { enter: () => undefined })).entry.relaxed).toBe(false);
    expect(planTransition(facts({}, { terminal: "success" })).entry.relaxed).toBe(false);
    expect(planTransition(facts({}, { terminal: "error" })).entry.relaxed).toBe(false);
  });

  it("a move between running and waiting of the runtime's own does not wait for the disk", () => {
    expect(planTransition(facts({}, waiting)).entry.relaxed).toBe(true);
    expect(planTransition(facts({}, { enter: () => undefined })).entry.relaxed).toBe(true);
  });

  it("a move inside a caller's transaction is as durable as the caller's commit", () => {
    expect(planTransition(facts({ inCallersTransaction: true }, waiting)).entry.relaxed).toBe(false);
  });
});

describe("planning a transition: the slots a state opens", () => {
  it("opens one slot per wait, in the order the state subscribes, with its role and no clock unless it has one", () => {
    const { entry } = planTransition(
      facts({ waits: [wait({ slotId: "s1", subscription: { as: "Filer" } }), wait({ slotId: "s2", event: "Approved", assignee: null, candidates: [BO, CY] })] }, waiting),
    );
    expect(entry.slots.map((slot) => [slot.id, slot.event, slot.role, slot.assigneeId, slot.candidateIds, slot.dueAt])).toEqual([
      ["s1", "Answered", "Filer", ADA, [ADA], null],
      ["s2", "Approved", null, null, [BO, CY], null],
    ]);
    expect(entry.slots[0]).toMatchObject({ workflowInstanceId: "instance-1", workflow: "FileTask", taskId: "task-1", state: "Next", openedAt: AT, escalations: [] });
  });

  it("makes a slot due its `within` after the move", () => {
    const { entry } = planTransition(facts({ waits: [wait({ subscription: { within: { hours: 4 } } })] }, waiting));
    expect(entry.slots[0]!.dueAt).toEqual(new Date(AT.getTime() + 4 * HOUR));
  });

  it("stores the escalation steps at their fractions of the clock, in firing order, groups by id", () => {
    const escalate = [{ at: "80%", addGroup: "Finance" }, { at: "50%", remind: true }] as const;
    const { entry } = planTransition(facts({ waits: [wait({ subscription: { within: { hours: 10 }, escalate } })] }, waiting));
    expect(entry.slots[0]!.escalations).toEqual([
      { step: 1, dueAt: new Date(AT.getTime() + 5 * HOUR), action: { kind: "remind" } },
      { step: 2, dueAt: new Date(AT.getTime() + 8 * HOUR), action: { kind: "add-group", groupId: FINANCE, group: "finance" } },
    ]);
  });

  it("refuses an escalation to a group there is no such group of, as a definition error", () => {
    const escalate = [{ at: "50%", addGroup: "treasury" }] as const;
    expect(() => planTransition(facts({ waits: [wait({ subscription: { within: { hours: 1 }, escalate } })] }, waiting))).toThrow(
      expect.objectContaining({ code: "definition_error", message: expect.stringContaining("escalates to the group “treasury”") }),
    );
  });

  it("refuses an escalation chain without a clock, as a definition error", () => {
    const subscription = { escalate: [{ at: "50%", remind: true }] } as unknown as WaitFacts["subscription"];
    expect(() => planTransition(facts({ waits: [wait({ subscription })] }, waiting))).toThrow(expect.objectContaining({ code: "definition_error", message: expect.stringContaining("without an SLA") }));
  });

  it("hands the agent asks waiting on the task to the first slot, and none when the state opens no slot", () => {
    expect(planTransition(facts({ waits: [wait({ event: "Answered" }), wait({ slotId: "s2", event: "Approved" })] }, waiting)).entry.linkAsksTo).toEqual({ workflow: "FileTask", event: "Answered" });
    expect(planTransition(facts({}, { enter: () => undefined })).entry.linkAsksTo).toBeUndefined();
  });

  it("records the state entered, each slot opened and how the run ended as its events", () => {
    const { entry } = planTransition(facts({ waits: [wait({ slotId: "s1" })] }, waiting));
    expect(entry.events.map((event) => event.kind)).toEqual(["state-entered", "slot-opened"]);
    expect(planTransition(facts({}, { terminal: "error", message: "nobody" })).entry.events.map((event) => [event.kind, event.data])).toEqual([
      ["state-entered", { state: "Next", from: "Running" }],
      ["failed", { state: "Next", message: "nobody" }],
    ]);
  });
});

describe("planning a transition: who waits on a slot", () => {
  it("puts an away assignee's wait to the delegate they named, recording whom it was meant for", () => {
    const people = [{ id: ADA, away: true, deactivated: false, presentDelegateId: BO }];
    const [slot] = planTransition(facts({ people, waits: [wait()] }, waiting)).entry.slots;
    expect(slot).toMatchObject({ assigneeId: BO, candidateIds: [BO], delegatedFrom: ADA });
  });

  it("leaves out deactivated candidates and away ones without a delegate while someone else can take it", () => {
    const people = [{ id: ADA, away: true, deactivated: false, presentDelegateId: null }, { id: BO, away: false, deactivated: true, presentDelegateId: null }, present(CY)];
    const plan = planTransition(facts({ people, waits: [wait({ assignee: null, candidates: [ADA, BO, CY] })] }, waiting));
    expect(plan.entry.slots[0]!.candidateIds).toEqual([CY]);
    expect(plan.nobody).toBeNull();
  });

  it("says nobody can take it because they are away, keeping whom it was put to", () => {
    const people = [{ id: ADA, away: true, deactivated: false, presentDelegateId: null }];
    const plan = planTransition(facts({ people, waits: [wait()] }, waiting));
    expect(plan.nobody).toBe("away");
    expect(plan.entry.slots[0]).toMatchObject({ assigneeId: ADA, candidateIds: [ADA], delegatedFrom: null });
  });

  it("says nobody can take it because those named are deactivated", () => {
    const people = [{ id: ADA, away: false, deactivated: true, presentDelegateId: null }];
    expect(planTransition(facts({ people, waits: [wait()] }, waiting)).nobody).toBe("unavailable");
  });

  it("names the groups it is put to by id, and counts their present members as someone", () => {
    const plan = planTransition(facts({ waits: [wait({ assignee: null, candidates: [group("Finance")] })] }, waiting));
    expect(plan.entry.slots[0]).toMatchObject({ assigneeId: null, candidateIds: [], candidateGroupIds: [FINANCE] });
    expect(plan.nobody).toBeNull();
  });

  it("says nobody can take a wait put only to a group with nobody present", () => {
    const empty: RoutedGroup = { ...financeGroup, present: 0, members: 0 };
    expect(planTransition(facts({ groups: [empty], waits: [wait({ assignee: null, candidates: [group("finance")] })] }, waiting)).nobody).toBe("unavailable");
  });

  it("refuses a wait on a group there is no such group of, as a definition error", () => {
    expect(() => planTransition(facts({ waits: [wait({ candidates: [group("Treasury")] })] }, waiting))).toThrow(
      expect.objectContaining({ code: "definition_error", message: expect.stringContaining("waits on the group “Treasury”") }),
    );
  });

  it("decides nothing-for-nobody by the first slot only: the one agent asks are handed to", () => {
    const people = [present(ADA), { id: BO, away: true, deactivated: false, presentDelegateId: null }];
    const plan = planTransition(facts({ people, waits: [wait(), wait({ slotId: "s2", assignee: BO, candidates: [BO] })] }, waiting));
    expect(plan.nobody).toBeNull();
  });
});

describe("planning a transition: what it announces", () => {
  const plan = planTransition(facts({ waits: [wait({ slotId: "s1", candidates: [ADA, group("finance")] })] }, waiting));

  it("tells the run's new status, each slot opened and each agent ask handed to the first slot, to its assignee, candidates and group members", () => {
    const changes = changesOfEntering(plan, { linkedAskIds: ["q1"], cancelledQuestions: [] }, new Map([["s1", [BO, ADA]]]));
    expect(changes).toEqual([
      { kind: "run-status", taskId: "task-1", status: "waiting", userIds: [] },
      { kind: "question-asked", taskId: "task-1", questionId: "q1", slotId: "s1", userIds: [ADA, BO] },
      { kind: "slot-opened", taskId: "task-1", slotId: "s1", userIds: [ADA, BO] },
    ]);
  });

  it("tells whom each question it ended with nothing was put to", () => {
    const cancelled = { questionId: "q0", slotId: "old", assigneeId: null, candidateIds: [CY], candidateGroupIds: [LEGAL] };
    const changes = changesOfEntering(plan, { linkedAskIds: [], cancelledQuestions: [cancelled] }, new Map([["old", [ADA]]]));
    expect(changes.at(-1)).toEqual({ kind: "question-closed", taskId: "task-1", questionId: "q0", slotId: "old", userIds: [CY, ADA] });
  });

  it("ends the agent ask handed to a slot nobody can take with nothing at once, saying why", () => {
    const people = [{ id: ADA, away: true, deactivated: false, presentDelegateId: null }];
    const away = planTransition(facts({ people, waits: [wait({ slotId: "s1" })] }, waiting));
    const nothing = nothingForNobody(away, ["q1"], new Map());
    expect(nothing?.closing).toMatchObject({ questionId: "q1", reason: "away", at: AT, events: [{ kind: "nothing", data: { questionId: "q1", reason: "away", by: null } }] });
    expect(nothing?.changes.map((change) => change.kind)).toEqual(["question-closed", "slot-finished"]);
    expect(nothingForNobody(away, [], new Map())).toBeUndefined();
    expect(nothingForNobody(plan, ["q1"], new Map())).toBeUndefined();
  });
});
