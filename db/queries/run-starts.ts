import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { runStarts } from "../schema";
import { insertAuditEvents } from "./audit-events";

/** A start form's one-time token, as the start it made recorded it. */
export interface RunStart {
  token: string;
  workflow: string;
  taskId: string;
  startedBy: string | null;
}

/**
 * Records that `token` started the run over `taskId`, and who started it for the audit log, in the
 * caller's transaction (the one that created the task and its run). Returns false when the token was
 * taken already — by an earlier submission, or a concurrent one that committed first (this insert
 * waits for it) — and the caller must then roll its start back.
 */
export async function recordRunStart(db: Db, start: RunStart & { at: Date }): Promise<boolean> {
  const rows = await db
    .insert(runStarts)
    .values({ token: start.token, workflow: start.workflow, taskId: start.taskId, startedBy: start.startedBy, createdAt: start.at })
    .onConflictDoNothing({ target: runStarts.token })
    .returning({ token: runStarts.token });
  if (rows.length === 0) return false;
  await insertAuditEvents(db, [
    { at: start.at, action: "run-started", category: "runs", actorId: start.startedBy, taskId: start.taskId, detail: { workflow: start.workflow } },
  ]);
  return true;
}

/** The start a token made, or undefined when it has made none. */
export async function findRunStart(db: Db, token: string): Promise<RunStart | undefined> {
  const [row] = await db
    .select({ token: runStarts.token, workflow: runStarts.workflow, taskId: runStarts.taskId, startedBy: runStarts.startedBy })
    .from(runStarts)
    .where(eq(runStarts.token, token));
  return row;
}
