import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { type SignInLink, signInLinks } from "../schema";

export type { SignInLink };

/** Stores a link by the hash of its token. */
export async function insertSignInLink(
  db: Db,
  link: { tokenHash: string; purpose: SignInLink["purpose"]; userId: string; questionId?: string | null; createdBy: string | null; createdAt: Date; expiresAt: Date },
): Promise<SignInLink> {
  const [row] = await db.insert(signInLinks).values(link).returning();
  return row!;
}

/** The link stored under this hash, live or not; undefined when there is none. */
export async function findSignInLink(db: Db, tokenHash: string): Promise<SignInLink | undefined> {
  const [link] = await db.select().from(signInLinks).where(eq(signInLinks.tokenHash, tokenHash)).limit(1);
  return link;
}

/** The link if it is of this purpose, unused and unexpired at `at`; undefined otherwise. Reads only. */
export async function findLiveSignInLink(db: Db, tokenHash: string, purpose: SignInLink["purpose"], at: Date): Promise<SignInLink | undefined> {
  const [link] = await db
    .select()
    .from(signInLinks)
    .where(and(eq(signInLinks.tokenHash, tokenHash), eq(signInLinks.purpose, purpose), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, at)))
    .limit(1);
  return link;
}

/**
 * Uses a link: one conditional UPDATE, so of two uses at once exactly one gets the link back. Undefined
 * when it is unknown, of another purpose, already used or expired at `at`.
 */
export async function useSignInLink(db: Db, tokenHash: string, purpose: SignInLink["purpose"], at: Date): Promise<SignInLink | undefined> {
  const [link] = await db
    .update(signInLinks)
    .set({ usedAt: at })
    .where(and(eq(signInLinks.tokenHash, tokenHash), eq(signInLinks.purpose, purpose), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, at)))
    .returning();
  return link;
}

/** Ends a person's live links of a purpose at `at` (a new invite replaces the old); how many were live. */
export async function expireLiveSignInLinks(db: Db, userId: string, purpose: SignInLink["purpose"], at: Date): Promise<number> {
  const ended = await db
    .update(signInLinks)
    .set({ expiresAt: at })
    .where(and(eq(signInLinks.userId, userId), eq(signInLinks.purpose, purpose), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, at)))
    .returning({ tokenHash: signInLinks.tokenHash });
  return ended.length;
}
