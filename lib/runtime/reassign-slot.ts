import { sql } from "drizzle-orm";
import { queryRows } from "@/db/client";
import type { Commit, RuntimeChange } from "./announce";

/** An admin moving an open wait to someone else. */
export interface SlotReassignment {
  slotId: string;
  /** The user id of the new assignee. */
  to: string;
  /** The user id of who reassigns it, for the record. */
  by: string;
}

/** What became of a reassignment: data, branched on by the caller. */
export type ReassignSlotResult =
  | { status: "reassigned"; slotId: string; taskId: string; from: string | null; to: string; at: Date }
  /** No such slot, or it is no longer open (answered, expired or closed meanwhile). */
  | { status: "not_open" };

/** Reassigning open slots: part of the runtime, so the change is announced like every other. */
export interface SlotReassigner {
  /**
   * Moves an open slot to another assignee, in one conditional update: the new one becomes a
   * candidate, the old one stops being one (they keep a say only through a candidate group they are
   * in), and a claim is dropped; records a `slot-reassigned` run event (from, to, by) and announces
   * `slot-reassigned` to the old and the new assignee. A slot no longer open is left alone (`not_open`).
   */
  reassignSlot(reassignment: SlotReassignment): Promise<ReassignSlotResult>;
}

/** {@link SlotReassigner} over a runtime's commit and clock. */
export function createSlotReassigner(deps: { commit: Commit; now: () => Date }): SlotReassigner {
  return {
    reassignSlot({ slotId, to, by }) {
      const at = deps.now();
      return deps.commit<ReassignSlotResult>(async (tx) => {
        const rows = await queryRows<{ id: string; task_id: string; previous: string | null }>(
          tx,
          // `previous` is read under the row lock, so two reassignments racing each record the assignee they replaced.
          sql`with previous as (
                select id, assignee_id from slots where id = ${slotId} and status = 'open' for update
              ), moved as (
                update slots set assignee_id = ${to}, claimed_by = null, claimed_at = null, delegated_from = null,
                  candidate_ids = array_append(array_remove(array_remove(candidate_ids, previous.assignee_id), ${to}::uuid), ${to}::uuid)
                from previous where slots.id = previous.id and slots.status = 'open'
                returning slots.id, slots.task_id, slots.workflow_instance_id, previous.assignee_id as previous
              ), recorded as (
                insert into run_events (task_id, workflow_instance_id, kind, data, at)
                select task_id, workflow_instance_id, 'slot-reassigned',
                  jsonb_build_object('slotId', id, 'from', previous, 'to', ${to}::uuid, 'by', ${by}::uuid), ${at.toISOString()}::timestamptz
                from moved
              )
              select id, task_id, previous from moved`,
        );
        const moved = rows[0];
        if (!moved) return { value: { status: "not_open" }, changes: [] };
        const change: RuntimeChange = {
          kind: "slot-reassigned",
          taskId: moved.task_id,
          slotId: moved.id,
          userIds: [...new Set([...(moved.previous ? [moved.previous] : []), to])],
        };
        return {
          value: { status: "reassigned", slotId: moved.id, taskId: moved.task_id, from: moved.previous, to, at },
          changes: [change],
        };
      });
    },
  };
}
