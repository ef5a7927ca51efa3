import type { z } from "zod";
import { depositIntoSlot, findSlotForExplanation, slotParties, type SlotRow } from "@/db/queries/runtime-slots";
import { AppError } from "@/lib/errors";
import type { RuntimeContext } from "./runtime-context";
import type { EventSchemas } from "./types";

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

/**
 * Deposits an event into the task's slot of `workflowName`: one conditional update decides, so exactly
 * one deposit wins. A payload the event's schema refuses never reaches the slot (`invalid_input`);
 * for a deposit that did not win, a read after the update explains why — nothing of it was committed.
 */
export async function depositEvent(
  context: Pick<RuntimeContext, "db" | "now" | "commit" | "workflowNamed">,
  workflowName: string,
  deposit: Deposit<EventSchemas, string>,
): Promise<SlotRow> {
  const definition = context.workflowNamed(workflowName);
  const schema = definition.events[deposit.event];
  if (!schema) throw new AppError("invalid_input", `${workflowName} has no event ${deposit.event}.`);
  // Refused payloads never reach the slot.
  const parsed = schema.safeParse(deposit.payload);
  if (!parsed.success) throw new AppError("invalid_input", parsed.error.issues.map((issue) => issue.message).join("; "));
  const selector = { workflow: workflowName, taskId: deposit.taskId, event: deposit.event, ...(deposit.slotId ? { slotId: deposit.slotId } : {}) };
  const at = context.now();
  const won = await context.commit(async (tx) => {
    const slot = await depositIntoSlot(tx, { ...selector, by: deposit.by, payload: parsed.data, at });
    const userIds = slot ? slotParties(slot) : [];
    return { value: slot, changes: slot ? [{ kind: "slot-finished", taskId: slot.taskId, slotId: slot.id, userIds }] : [] };
  }, { oneStatement: true });
  if (won) return won;
  // The update decided; this read only explains the decision.
  const slot = await findSlotForExplanation(context.db, selector);
  if (!slot) throw new AppError("not_found", `There is no ${deposit.event} slot for this task.`);
  if (!slotParties(slot).includes(deposit.by)) throw new AppError("forbidden", `You may not answer this ${workflowName} task.`);
  if (slot.status === "finished") {
    const who = slot.finishedByName ?? "someone else";
    throw new AppError("conflict", `Already answered by ${who} at ${slot.finishedAt?.toISOString()}.`);
  }
  if (slot.status === "expired" || (slot.dueAt && slot.dueAt <= at)) {
    throw new AppError("conflict", `This question closed unanswered at ${slot.dueAt?.toISOString()}.`);
  }
  throw new AppError("conflict", `This question is no longer open (${slot.status}).`);
}
