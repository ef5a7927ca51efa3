import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { runStarts } from "../schema";

/** A start form's one-time token, as the start it made recorded it. */
export interface RunStart {
  token: string;
  workflow: string;
  taskId: string;
  startedBy: string | null;
}

/**
 * Records that `token` started the run over `taskId`, in the caller's transaction (the one that
 * created the task and its run). Returns false when the token was taken already — by an earlier
 * submission, or a concurrent one that committed first (this insert waits for it) — and the caller
 * must then roll its start back.
 */
export async function recordRunStart(db: Db, start: RunStart & { at: Date }): Promise<boolean> {
  const rows = await db
    .insert(runStarts)
    .values({ token: start.token, workflow: start.workflow, taskId: start.taskId, startedBy: start.startedBy, createdAt: start.at })
    .onConflictDoNothing({ target: runStarts.token })
    .returning({ token: runStarts.token });
  return rows.length > 0;
}

/** The start a token made, or undefined when it has made none. */
export async function findRunStart(db: Db, token: string): Promise<RunStart | undefined> {
  const [row] = await db
    .select({ token: runStarts.token, workflow: runStarts.workflow, taskId: runStarts.taskId, startedBy: runStarts.startedBy })
    .from(runStarts)
    .where(eq(runStarts.token, token));
  return row;
}
