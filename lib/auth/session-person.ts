import type { Db } from "@/db/client";
import { findUserById } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { isUuid } from "@/lib/ids";

/** What a session says: whose it is and when they signed in (ms since the epoch; null when unknown). */
export interface SessionIdentity {
  userId: string;
  signedInAt: number | null;
}

/**
 * Whether a person may still use a session they signed in to at `signedInAt`: not while deactivated,
 * and never one begun before their `sessions_valid_from` (deactivation ends every session at once,
 * and reactivating does not bring the old ones back).
 */
export function sessionAdmits(person: Pick<User, "deactivatedAt" | "sessionsValidFrom">, signedInAt: number | null): boolean {
  if (person.deactivatedAt) return false;
  if (!person.sessionsValidFrom) return true;
  return signedInAt !== null && signedInAt >= person.sessionsValidFrom.getTime();
}

/** The person a session belongs to, read fresh; null when there is none, or the session no longer admits them. */
export async function personForSession(db: Db, session: SessionIdentity | null): Promise<User | null> {
  if (!session || !isUuid(session.userId)) return null;
  const person = await findUserById(db, session.userId);
  return person && sessionAdmits(person, session.signedInAt) ? person : null;
}
