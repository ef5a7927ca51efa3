import type { Db } from "@/db/client";

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
}

/**
 * Called inside the transaction that commits a change (e.g. to `NOTIFY`): if the change rolls
 * back, so does whatever the hook wrote, and nothing is announced that did not happen.
 */
export type Announce = (db: Db, change: RuntimeChange) => Promise<void>;

/** Runs work in one transaction and announces what it reports, inside that transaction. */
export type Commit = <T>(work: (tx: Db) => Promise<{ value: T; changes: readonly RuntimeChange[] }>) => Promise<T>;

/** A {@link Commit} over `db` announcing through `announce`. */
export function committer(db: Db, announce: Announce | undefined): Commit {
  return (work) =>
    db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const { value, changes } = await work(tx);
      if (announce) for (const change of changes) await announce(tx, change);
      return value;
    });
}
