import { describe, expect, it } from "vitest";
import type { NewSlot } from "@/db/queries/runtime-slots";
import type { TrackedTable } from "@/lib/runtime";
import type { AnyWorkflow } from "@/lib/runtime/types";
import { eventsOfEntering, statusOf } from "@/lib/runtime/transitions";

const AT = new Date("2026-11-10T09:00:00.000Z");
const workflow: AnyWorkflow = { name: "FileTask", tracks: {} as TrackedTable, initial: "Running", events: {}, states: {} };
const from = { instanceId: "instance-1", taskId: "task-1", state: "Running", version: 3 };

function slot(id: string, overrides: Partial<NewSlot> = {}): NewSlot {
  return {
    id,
    workflowInstanceId: "instance-1",
    workflow: "FileTask",
    taskId: "task-1",
    state: "Waiting",
    event: "Answered",
    role: null,
    assigneeId: "ada",
    candidateIds: ["ada", "bo"],
    candidateGroupIds: [],
    delegatedFrom: null,
    openedAt: AT,
    dueAt: null,
    escalations: [],
    ...overrides,
  } as NewSlot;
}

describe("a state's status", () => {
  it("completes or fails the run when the state is terminal, waits when it waits for events, and runs otherwise", () => {
    expect(statusOf({ terminal: "success" })).toBe("completed");
    expect(statusOf({ terminal: "error", message: "nobody answered" })).toBe("failed");
    expect(statusOf({ subscribe: { Answered: {} } })).toBe("waiting");
    expect(statusOf({ subscribe: {}, enter: () => undefined })).toBe("running");
    expect(statusOf({ enter: () => undefined })).toBe("running");
  });
});

describe("the events of entering a state", () => {
  it("record a run's start when the move creates it, then the state entered from nowhere", () => {
    const events = eventsOfEntering({ workflow, from: { ...from, state: null }, to: "Running", create: true }, {}, "running", [], AT);
    expect(events).toEqual([
      { taskId: "task-1", workflowInstanceId: "instance-1", kind: "run-started", data: { workflow: "FileTask" }, at: AT },
      { taskId: "task-1", workflowInstanceId: "instance-1", kind: "state-entered", data: { state: "Running", from: null }, at: AT },
    ]);
  });

  it("record each slot the state opens, with who waits and when it is due", () => {
    const due = new Date("2026-11-12T09:00:00.000Z");
    const events = eventsOfEntering({ workflow, from, to: "Waiting", create: false }, {}, "waiting", [slot("s1", { dueAt: due }), slot("s2", { event: "Approved", assigneeId: null, candidateIds: [] })], AT);
    expect(events.map((event) => [event.kind, event.data])).toEqual([
      ["state-entered", { state: "Waiting", from: "Running" }],
      ["slot-opened", { slotId: "s1", event: "Answered", assigneeId: "ada", candidates: 2, dueAt: due.toISOString() }],
      ["slot-opened", { slotId: "s2", event: "Approved", assigneeId: null, candidates: 0, dueAt: null }],
    ]);
  });

  it("record how the run ended, with the terminal state's message", () => {
    const completed = eventsOfEntering({ workflow, from, to: "Completed", create: false }, {}, "completed", [], AT);
    expect(completed.at(-1)).toMatchObject({ kind: "completed", data: { state: "Completed", message: null } });
    const failed = eventsOfEntering({ workflow, from, to: "Expired", create: false }, { message: "nobody answered in time" }, "failed", [], AT);
    expect(failed.at(-1)).toMatchObject({ kind: "failed", data: { state: "Expired", message: "nobody answered in time" } });
  });
});
