import type { Db } from "@/db/client";
import { type FiredEscalation, fireDueEscalations } from "@/db/queries/runtime-escalations";
import { expireDueSlots, slotParties, type SlotRow } from "@/db/queries/runtime-slots";
import type { RuntimeChange } from "./announce";
import type { RuntimeContext } from "./runtime-context";

/** How many overdue slots one SLA sweep expires; a worker that expired this many sweeps again at once. */
export const SLA_SWEEP_BATCH = 100;

/** The SLA sweeps: what a worker does with the clock each time it wakes, before it runs jobs. */
export interface Sweeps {
  /** Expires slots past their due time and queues their `unfinished` jobs; returns how many expired. */
  sweepExpiredSlots(): Promise<number>;
  /**
   * Fires the escalation steps that are due on open slots (each once, in order per slot, whichever
   * instance sweeps) and announces each as `slot-escalated`; returns how many slots it escalated.
   */
  sweepEscalations(): Promise<number>;
}

/** The statements the sweeps run, each one conditional statement taking at most `limit` rows; the database's by default. */
export interface SweepStatements {
  expireDueSlots(db: Db, at: Date, limit: number): Promise<SlotRow[]>;
  fireDueEscalations(db: Db, at: Date, limit: number): Promise<FiredEscalation[]>;
}

const DATABASE_SWEEPS: SweepStatements = { expireDueSlots, fireDueEscalations };

/** Each expired slot, announced to everyone it was for. */
export function expiryChanges(expired: readonly SlotRow[]): RuntimeChange[] {
  return expired.map((slot): RuntimeChange => ({ kind: "slot-expired", taskId: slot.taskId, slotId: slot.id, userIds: slotParties(slot) }));
}

/** Each escalation step fired, announced to everyone its slot is for now (a group it added included), with which step it was. */
export function escalationChanges(fired: readonly FiredEscalation[]): RuntimeChange[] {
  return fired.map((step): RuntimeChange => ({
    kind: "slot-escalated",
    taskId: step.taskId,
    slotId: step.slotId,
    ...(step.questionId ? { questionId: step.questionId } : {}),
    userIds: slotParties(step),
    escalation: { step: step.step, action: step.action, percent: step.percent },
  }));
}

/** The sweeps over a runtime's commit and clock, each one statement of at most {@link SLA_SWEEP_BATCH} slots. */
export function createSweeps(context: Pick<RuntimeContext, "commit" | "now">, statements: SweepStatements = DATABASE_SWEEPS): Sweeps {
  return {
    sweepExpiredSlots() {
      return context.commit(async (tx) => {
        const expired = await statements.expireDueSlots(tx, context.now(), SLA_SWEEP_BATCH);
        return { value: expired.length, changes: expiryChanges(expired) };
      }, { oneStatement: true });
    },

    sweepEscalations() {
      return context.commit(async (tx) => {
        const fired = await statements.fireDueEscalations(tx, context.now(), SLA_SWEEP_BATCH);
        // Several steps of one slot may fire in one sweep: it counts once.
        return { value: new Set(fired.map((step) => step.slotId)).size, changes: escalationChanges(fired) };
      }, { oneStatement: true });
    },
  };
}
