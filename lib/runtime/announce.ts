import type { Db } from "@/db/client";
import type { EscalationAction } from "@/db/schema";

/** What changed, for screens that show it live. */
export type RuntimeChangeKind =
  | "question-asked"
  | "question-answered"
  | "question-refused"
  | "question-closed"
  | "slot-opened"
  | "slot-finished"
  | "slot-expired"
  | "slot-reassigned"
  | "slot-claimed"
  | "slot-escalated"
  | "run-status";

/** One change the runtime committed: which task, which question or slot, and whose inbox it touches. */
export interface RuntimeChange {
  kind: RuntimeChangeKind;
  taskId: string;
  questionId?: string;
  slotId?: string;
  /** The run's new status, for `run-status`. */
  status?: string;
  /** The people whose inbox this changes (a slot's assignee and candidates); may be empty. */
  userIds: string[];
  /**
   * For `slot-escalated`: which step of the slot's chain fired, what it did and at what percentage
   * of the SLA. For an `add-group` step, `userIds` includes the group's members.
   */
  escalation?: { step: number; action: EscalationAction; percent: number };
}

/**
 * Called once inside each transaction that commits changes, with all of them (e.g. to `NOTIFY` in one
 * statement): if the transaction rolls back, so does whatever the hook wrote, and nothing is
 * announced that did not happen.
 */
export type Announce = (db: Db, changes: readonly RuntimeChange[]) => Promise<void>;

/** Work for {@link Commit}: its value, and the changes to announce. */
export type CommitWork<T> = (tx: Db) => Promise<{ value: T; changes: readonly RuntimeChange[] }>;

/**
 * Runs work in one transaction and announces the changes it reports, inside that transaction. Work
 * that is a single statement says so (`oneStatement`): with nothing to announce it then runs as its
 * own implicit transaction, without BEGIN and COMMIT round trips.
 */
export type Commit = <T>(work: CommitWork<T>, options?: { oneStatement?: boolean }) => Promise<T>;

/** A {@link Commit} over `db` announcing through `announce`. */
export function committer(db: Db, announce: Announce | undefined): Commit {
  return async (work, options) => {
    if (!announce && options?.oneStatement) return (await work(db)).value;
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const { value, changes } = await work(tx);
      if (announce && changes.length > 0) await announce(tx, changes);
      return value;
    });
  };
}
