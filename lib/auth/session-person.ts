import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { deleteExpiredEndedSessions, findUserForSession, insertEndedSession } from "@/db/queries/sessions";
import type { User } from "@/db/schema";
import { isUuid } from "@/lib/ids";

/**
 * How long a session lasts without being refreshed (next-auth's own default, named so that an ended
 * session is remembered exactly as long as a token of it could still be presented).
 */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** The claim naming a session from sign-in to sign-out: a random id, the same in every refresh of its token. */
export const SESSION_ID_CLAIM = "sid";

/** A new session's id, put in its token at sign-in. */
export function newSessionId(): string {
  return randomUUID();
}

/** What a session says: whose it is, which session it is, and when they signed in (ms since the epoch; null when unknown). */
export interface SessionIdentity {
  userId: string;
  /** The token's {@link SESSION_ID_CLAIM}; null in tokens issued before sessions could be ended. */
  sessionId: string | null;
  signedInAt: number | null;
}

/**
 * Whether a person may still use a session they signed in to at `signedInAt`: not while deactivated,
 * and never one begun before their `sessions_valid_from` (deactivation and a new password end every
 * session at once, and reactivating does not bring the old ones back).
 */
export function sessionAdmits(person: Pick<User, "deactivatedAt" | "sessionsValidFrom">, signedInAt: number | null): boolean {
  if (person.deactivatedAt) return false;
  if (!person.sessionsValidFrom) return true;
  return signedInAt !== null && signedInAt >= person.sessionsValidFrom.getTime();
}

/**
 * The person a session belongs to, read fresh; null when there is none, or the session no longer
 * admits them: signed out, deactivated, or begun before their sessions were ended. The person and
 * the sign-out are read in one query. A token without a session id (issued before sessions could
 * be ended) is refused: it could never be signed out, so it is not honoured at all.
 */
export async function personForSession(db: Db, session: SessionIdentity | null): Promise<User | null> {
  if (!session || !isUuid(session.userId) || !isUuid(session.sessionId)) return null;
  const found = await findUserForSession(db, session.userId, session.sessionId);
  return found && !found.ended && sessionAdmits(found.user, session.signedInAt) ? found.user : null;
}

/**
 * Ends a session (signing out): its id is remembered until no token of it can still be valid, and
 * every request carrying it is refused from then on. Ended sessions nobody can present any more are
 * forgotten in the same go, which keeps the table as small as the sign-outs of the last month.
 * Takes the token as next-auth decoded it (null when it could not); one without a session id or
 * person ends nothing.
 */
export async function endSession(db: Db, token: { sid?: unknown; sub?: unknown } | null | undefined, now: Date = new Date()): Promise<boolean> {
  const sessionId = token?.[SESSION_ID_CLAIM];
  const userId = token?.sub;
  if (!isUuid(sessionId) || !isUuid(userId)) return false;
  // Refreshing a token moves its expiry on, so the latest any token of this session can expire is a
  // whole lifetime from now: the row is kept that long.
  await insertEndedSession(db, { sessionId, userId, endedAt: now, expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000) });
  await deleteExpiredEndedSessions(db, now);
  return true;
}
