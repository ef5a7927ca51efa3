import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import type { FiredEscalation } from "@/db/queries/runtime-escalations";
import type { SlotRow } from "@/db/queries/runtime-slots";
import type { Commit, RuntimeChange } from "@/lib/runtime/announce";
import { createSweeps, SLA_SWEEP_BATCH, type SweepStatements } from "@/lib/runtime/sweeps";

const AT = new Date("2026-11-10T09:00:00.000Z");
const TX = {} as Db;
const ADD_FINANCE = { kind: "add-group", groupId: "g-finance", group: "finance" } as const;

/** A commit that runs the work on a stand-in transaction and keeps what it would announce. */
function recordingCommit() {
  const announced: RuntimeChange[][] = [];
  const options: ({ oneStatement?: boolean } | undefined)[] = [];
  const commit: Commit = async (work, commitOptions) => {
    options.push(commitOptions);
    const { value, changes } = await work(TX);
    announced.push([...changes]);
    return value;
  };
  return { commit, announced, options };
}

function slot(id: string, parties: { assigneeId?: string; candidateIds?: string[]; groupMemberIds?: string[] }): SlotRow {
  return { id, taskId: `task-of-${id}`, assigneeId: parties.assigneeId ?? null, candidateIds: parties.candidateIds ?? [], groupMemberIds: parties.groupMemberIds ?? [] } as unknown as SlotRow;
}

function step(slotId: string, stepNumber: number, overrides: Partial<FiredEscalation> = {}): FiredEscalation {
  return { slotId, step: stepNumber, action: { kind: "remind" }, percent: 50, taskId: `task-of-${slotId}`, questionId: null, assigneeId: "ada", candidateIds: [], groupMemberIds: [], ...overrides };
}

describe("an SLA sweep", () => {
  it("expires at most one batch of overdue slots in one statement, at the runtime's clock", async () => {
    const limits: number[] = [];
    const statements: SweepStatements = {
      expireDueSlots: async (tx, at, limit) => {
        expect(tx).toBe(TX);
        expect(at).toEqual(AT);
        limits.push(limit);
        return [slot("s1", { assigneeId: "ada" })];
      },
      fireDueEscalations: async () => [],
    };
    const { commit, options } = recordingCommit();
    expect(await createSweeps({ commit, now: () => AT }, statements).sweepExpiredSlots()).toBe(1);
    expect(limits).toEqual([SLA_SWEEP_BATCH]);
    expect(options).toEqual([{ oneStatement: true }]);
  });

  it("tells everyone an expired slot was for: its assignee, its candidates and its groups' members, once each", async () => {
    const statements: SweepStatements = {
      expireDueSlots: async () => [slot("s1", { assigneeId: "ada", candidateIds: ["ada", "bo"], groupMemberIds: ["bo", "cy"] }), slot("s2", {})],
      fireDueEscalations: async () => [],
    };
    const { commit, announced } = recordingCommit();
    await createSweeps({ commit, now: () => AT }, statements).sweepExpiredSlots();
    expect(announced).toEqual([
      [
        { kind: "slot-expired", taskId: "task-of-s1", slotId: "s1", userIds: ["ada", "bo", "cy"] },
        { kind: "slot-expired", taskId: "task-of-s2", slotId: "s2", userIds: [] },
      ],
    ]);
  });

  it("counts the slots it escalated, not the steps: two steps of one slot due at once are one slot", async () => {
    const limits: number[] = [];
    const statements: SweepStatements = {
      expireDueSlots: async () => [],
      fireDueEscalations: async (_tx, _at, limit) => {
        limits.push(limit);
        return [step("s1", 1), step("s1", 2, { action: ADD_FINANCE, percent: 80, groupMemberIds: ["fin"] }), step("s2", 1, { questionId: "q2" })];
      },
    };
    const { commit, announced } = recordingCommit();
    expect(await createSweeps({ commit, now: () => AT }, statements).sweepEscalations()).toBe(2);
    expect(limits).toEqual([SLA_SWEEP_BATCH]);
    expect(announced[0]).toEqual([
      { kind: "slot-escalated", taskId: "task-of-s1", slotId: "s1", userIds: ["ada"], escalation: { step: 1, action: { kind: "remind" }, percent: 50 } },
      { kind: "slot-escalated", taskId: "task-of-s1", slotId: "s1", userIds: ["ada", "fin"], escalation: { step: 2, action: ADD_FINANCE, percent: 80 } },
      { kind: "slot-escalated", taskId: "task-of-s2", slotId: "s2", questionId: "q2", userIds: ["ada"], escalation: { step: 1, action: { kind: "remind" }, percent: 50 } },
    ]);
  });
});
