import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { findAnswerLink, insertAnswerLink, takeAnswerLink } from "@/db/queries/answer-links";
import { hashApiSecret } from "@/lib/api-keys";

/** The longest an answer link lasts: a week, or until the question's deadline when that is sooner. */
export const ANSWER_LINK_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/** The longest a session from an answer link lasts (never past the link's own expiry). */
export const ANSWER_SESSION_MAX_MS = 24 * 60 * 60_000;

/** 32 random bytes in base64url: 43 characters of A–Z, a–z, 0–9, `-` and `_`. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Whether `value` looks like an answer link's token (a cheap check before any query). */
export function isAnswerLinkToken(value: unknown): value is string {
  return typeof value === "string" && TOKEN_PATTERN.test(value);
}

/**
 * Makes a single-use link that signs `userId` in to answer `questionId` only: 32 random bytes, of
 * which only the SHA-256 is stored. It expires at the question's deadline or in a week, whichever is
 * sooner. Returns the token and its absolute URL under `baseUrl` (`/a/<token>`).
 */
export async function createAnswerLink(
  db: Db,
  options: { userId: string; questionId: string; dueAt: Date | null; baseUrl: string; now?: Date },
): Promise<{ token: string; url: string; expiresAt: Date }> {
  const now = options.now ?? new Date();
  const latest = now.getTime() + ANSWER_LINK_LIFETIME_MS;
  const expiresAt = new Date(options.dueAt ? Math.min(options.dueAt.getTime(), latest) : latest);
  const token = randomBytes(32).toString("base64url");
  await insertAnswerLink(db, { tokenHash: hashApiSecret(token), userId: options.userId, questionId: options.questionId, expiresAt }, now);
  return { token, url: new URL(`/a/${token}`, options.baseUrl).toString(), expiresAt };
}

/** What an answer link is now, without using it. */
export type AnswerLinkState =
  | { status: "valid"; questionId: string; expiresAt: Date }
  | { status: "used"; questionId: string }
  | { status: "expired"; questionId: string }
  /** No such link (or malformed, or its person can no longer sign in). */
  | { status: "unknown" };

/** Reads what an answer link is, for the page that offers to follow it; uses nothing. */
export async function answerLinkState(db: Db, token: unknown, now: Date = new Date()): Promise<AnswerLinkState> {
  if (!isAnswerLinkToken(token)) return { status: "unknown" };
  const link = await findAnswerLink(db, hashApiSecret(token));
  if (!link || link.deactivated) return { status: "unknown" };
  if (link.usedAt) return { status: "used", questionId: link.questionId };
  if (link.expiresAt <= now) return { status: "expired", questionId: link.questionId };
  return { status: "valid", questionId: link.questionId, expiresAt: link.expiresAt };
}

/** What following an answer link did. */
export type FollowAnswerLinkResult =
  | { status: "signed-in"; userId: string; questionId: string; sessionExpiresAt: Date }
  | Exclude<AnswerLinkState, { status: "valid" }>;

/**
 * Follows an answer link: uses it (once — a second follow, or a concurrent one, finds it used) and
 * says whom to sign in, for which one question, until when; or why it can't be followed.
 */
export async function followAnswerLink(db: Db, token: unknown, now: Date = new Date()): Promise<FollowAnswerLinkResult> {
  if (!isAnswerLinkToken(token)) return { status: "unknown" };
  const used = await takeAnswerLink(db, hashApiSecret(token), now);
  if (!used) {
    const state = await answerLinkState(db, token, now);
    // Valid a moment ago but not usable now: it was used meanwhile (or expired in between).
    return state.status === "valid" ? { status: "used", questionId: state.questionId } : state;
  }
  const sessionExpiresAt = new Date(Math.min(used.expiresAt.getTime(), now.getTime() + ANSWER_SESSION_MAX_MS));
  return { status: "signed-in", userId: used.userId, questionId: used.questionId, sessionExpiresAt };
}
