import { eq, getTableColumns, lte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { endedSessions, type User, users } from "../schema";

/**
 * A person and whether one of their sessions has been ended, in one query: what every request with
 * a session asks, so checking for a sign-out costs no second round trip. Undefined when there is no
 * such person.
 */
export async function findUserForSession(db: Db, userId: string, sessionId: string): Promise<{ user: User; ended: boolean } | undefined> {
  const [row] = await db
    .select({
      ...getTableColumns(users),
      sessionEnded: sql<boolean>`exists (select 1 from ${endedSessions} where ${endedSessions.sessionId} = ${sessionId})`.mapWith(Boolean),
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return undefined;
  const { sessionEnded, ...user } = row;
  return { user, ended: sessionEnded };
}

/** Whether this session has been ended. */
export async function isSessionEnded(db: Db, sessionId: string): Promise<boolean> {
  const [row] = await db.select({ sessionId: endedSessions.sessionId }).from(endedSessions).where(eq(endedSessions.sessionId, sessionId)).limit(1);
  return Boolean(row);
}

/** Records a session as ended until `expiresAt`, when no token of it can still be valid; ending it again changes nothing. */
export async function insertEndedSession(db: Db, ended: { sessionId: string; userId: string; endedAt: Date; expiresAt: Date }): Promise<void> {
  await db.insert(endedSessions).values(ended).onConflictDoNothing({ target: endedSessions.sessionId });
}

/** Forgets ended sessions whose tokens have expired anyway; returns how many. */
export async function deleteExpiredEndedSessions(db: Db, now: Date): Promise<number> {
  const deleted = await db.delete(endedSessions).where(lte(endedSessions.expiresAt, now)).returning({ sessionId: endedSessions.sessionId });
  return deleted.length;
}
