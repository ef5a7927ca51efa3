import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "@/db/client";
import { slotIsFor, slotPartiesArray } from "@/db/queries/slot-parties";
import type { Commit } from "./announce";

/** What became of "I'll take it" (or giving it back): data, branched on by the caller. */
export type ClaimSlotResult =
  | { status: "claimed" | "unclaimed"; slotId: string; taskId: string; at: Date }
  /** Someone else holds it: who, and since when. */
  | { status: "taken"; by: { id: string; name: string }; at: Date | null }
  /** No such open slot for this person: answered, expired, closed, not theirs, or one with an assignee (nothing to claim). */
  | { status: "not_open" };

/** Claiming an open question put to several people or a group, so the others see it is being handled. */
export interface SlotClaimer {
  /**
   * "I'll take it": one conditional update makes `by` the only candidate who may answer, if the slot
   * is open, has no assignee, is for them and nobody holds it. Records `slot-claimed` and tells
   * everyone it is for, live.
   */
  claimSlot(input: { slotId: string; by: string }): Promise<ClaimSlotResult>;
  /** Gives a claimed slot back (only its holder can): any of its people may answer again. */
  unclaimSlot(input: { slotId: string; by: string }): Promise<ClaimSlotResult>;
}

/** {@link SlotClaimer} over a runtime's commit and clock. */
export function createSlotClaimer(deps: { commit: Commit; now: () => Date }): SlotClaimer {

  async function explain(tx: Parameters<Parameters<Commit>[0]>[0], slotId: string, by: string): Promise<ClaimSlotResult> {
    const rows = await queryRows<{ claimed_by: string | null; name: string | null; claimed_at: string | Date | null }>(
      tx,
      sql`select s.claimed_by, u.name, s.claimed_at from slots s left join users u on u.id = s.claimed_by
           where s.id = ${slotId}::uuid and s.status = 'open' and s.assignee_id is null and ${slotIsFor("s.", by)}`,
    );
    const row = rows[0];
    if (row?.claimed_by && row.claimed_by !== by) {
      return { status: "taken", by: { id: row.claimed_by, name: row.name ?? "someone" }, at: row.claimed_at ? new Date(row.claimed_at) : null };
    }
    return { status: "not_open" };
  }

  /** One conditional update of who holds the slot, its run event and its announcement; or why nothing changed. */
  function change(input: { slotId: string; by: string }, kind: "slot-claimed" | "slot-unclaimed", set: (at: Date) => SQL, when: SQL): Promise<ClaimSlotResult> {
    const at = deps.now();
    return deps.commit<ClaimSlotResult>(async (tx) => {
      const rows = await queryRows<{ id: string; task_id: string; parties: string[] | string }>(
        tx,
        sql`with changed as (
              update slots set ${set(at)} where id = ${input.slotId}::uuid and status = 'open' and ${when}
              returning id, task_id, workflow_instance_id, ${slotPartiesArray("")} as parties
            ), recorded as (
              insert into run_events (task_id, workflow_instance_id, kind, data, at)
              select task_id, workflow_instance_id, ${kind}, jsonb_build_object('slotId', id, 'by', ${input.by}::uuid), ${at.toISOString()}::timestamptz
                from changed
            )
            select id, task_id, parties from changed`,
      );
      const row = rows[0];
      if (!row) return { value: await explain(tx, input.slotId, input.by), changes: [] };
      return {
        value: { status: kind === "slot-claimed" ? "claimed" : "unclaimed", slotId: row.id, taskId: row.task_id, at },
        changes: [{ kind: "slot-claimed", taskId: row.task_id, slotId: row.id, userIds: uuids(row.parties) }],
      };
    });
  }

  return {
    claimSlot(input) {
      const set = (at: Date) => sql`claimed_by = ${input.by}::uuid, claimed_at = ${at.toISOString()}::timestamptz`;
      return change(input, "slot-claimed", set, sql`assignee_id is null and claimed_by is null and ${slotIsFor("", input.by)}`);
    },
    unclaimSlot(input) {
      return change(input, "slot-unclaimed", () => sql`claimed_by = null, claimed_at = null`, sql`claimed_by = ${input.by}::uuid`);
    },
  };
}

function uuids(value: string[] | string): string[] {
  return Array.isArray(value) ? value : value.replace(/[{}]/g, "").split(",").filter(Boolean);
}
