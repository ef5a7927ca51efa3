import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import { expireLiveSignInLinks, findLiveSignInLink, insertSignInLink, useSignInLink } from "@/db/queries/sign-in-links";
import { findUserById, updateUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { log } from "@/lib/log";
import { type EmailNotifierOptions, type InviteEmail, sendInviteEmail } from "@/lib/notifiers";
import { recordPersonChanges } from "@/lib/person-changes";

/** How long an invite link works. */
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Random bytes in a link's token: 32, as base64url (43 characters). */
const TOKEN_BYTES = 32;

/** The shortest password Parley takes. */
export const PASSWORD_MIN_LENGTH = 8;
/** bcrypt reads only the first 72 bytes: a longer password would be checked only in part. */
const PASSWORD_MAX_BYTES = 72;

/** A new password as a form sends it. */
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .refine((password) => Buffer.byteLength(password, "utf8") <= PASSWORD_MAX_BYTES, "Use at most 72 characters (fewer with accents or symbols).")
  .refine((password) => password.trim().length > 0, "A password of only spaces is no password.");

/** The hash a link's token is stored and found by (the token itself is never stored). */
export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether `token` is shaped like one of ours; anything else is not looked up at all. */
function isTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** The path an invite link opens. */
export function invitePath(token: string): string {
  return `/invite/${token}`;
}

/** An invite just made: the only moment its token exists outside the person's hands. */
export interface NewInvite {
  token: string;
  expiresAt: Date;
}

/**
 * Makes a one-time invite link for a person (in the caller's transaction, if any): a random token,
 * stored only as its SHA-256, expiring after {@link INVITE_LIFETIME_MS}. Any invite they had that
 * still worked stops working. Recorded as a change to the person.
 */
export async function createInvite(db: Db, input: { userId: string; by: string | null; now?: Date }): Promise<NewInvite> {
  const now = input.now ?? new Date();
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITE_LIFETIME_MS);
  return db.transaction(async (tx) => {
    const replaced = await expireLiveSignInLinks(tx, input.userId, "invite", now);
    await insertSignInLink(tx, { tokenHash: hashLinkToken(token), purpose: "invite", userId: input.userId, createdBy: input.by, createdAt: now, expiresAt });
    await recordPersonChanges(tx, [{ personId: input.userId, byId: input.by, kind: "invited", data: { expiresAt: expiresAt.toISOString(), replaced }, at: now }]);
    return { token, expiresAt };
  });
}

/**
 * Who a live invite is for, without using it (opening the page must not spend the link: mail
 * scanners open links too). Null for a token that is unknown, used, expired, or whose person was
 * deactivated — all alike, so the page cannot be used to tell them apart.
 */
export async function readInvite(db: Db, token: string, now: Date = new Date()): Promise<Pick<User, "id" | "name" | "email"> | null> {
  if (!isTokenShaped(token)) return null;
  const link = await findLiveSignInLink(db, hashLinkToken(token), "invite", now);
  if (!link) return null;
  const person = await findUserById(db, link.userId);
  if (!person || person.deactivatedAt) return null;
  return { id: person.id, name: person.name, email: person.email };
}

/** What accepting an invite did: the person, now with a password, or why not (one answer for every dead link). */
export type AcceptInviteResult = { status: "accepted"; person: User } | { status: "link_not_valid" };

/**
 * Uses an invite: one conditional UPDATE takes the link (so of two submissions exactly one wins), and
 * in the same transaction the person's password is set and the change recorded. A deactivated
 * person's link does nothing.
 */
export async function acceptInvite(db: Db, input: { token: string; password: string; now?: Date }): Promise<AcceptInviteResult> {
  if (!isTokenShaped(input.token)) return { status: "link_not_valid" };
  const now = input.now ?? new Date();
  // Hashed before the transaction: bcrypt takes tens of milliseconds and needs no lock.
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const link = await useSignInLink(tx, hashLinkToken(input.token), "invite", now);
      if (!link) return { status: "link_not_valid" } as const;
      const current = await findUserById(tx, link.userId);
      if (!current || current.deactivatedAt) throw new DeadLink();
      // A new password ends every session begun with the old one (the sign-in that follows is after `now`).
      const person = (await updateUser(tx, link.userId, { passwordHash, sessionsValidFrom: now }))!;
      await recordPersonChanges(tx, [{ personId: person.id, byId: null, kind: "password-set", data: { through: "invite" }, at: now }]);
      return { status: "accepted", person } as const;
    });
  } catch (error) {
    // Rolled back: the link stays unused, and stays refused while its person is deactivated.
    if (error instanceof DeadLink) return { status: "link_not_valid" };
    throw error;
  }
}

class DeadLink extends Error {}

/** The whole invite link, on Parley's public address. */
export function inviteUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${invitePath(token)}`;
}

/** Whether an invite was emailed: sent, failed (the admin hands the link over instead), or no SMTP server is configured. */
export type InviteDelivery = "emailed" | "email_failed" | "not_configured";

/** Emails an invite when SMTP is configured (`PARLEY_SMTP_*`, read by the caller); after the commit, never inside a transaction. */
export async function emailInvite(smtp: EmailNotifierOptions | undefined, invite: InviteEmail): Promise<InviteDelivery> {
  if (!smtp) return "not_configured";
  const result = await sendInviteEmail(smtp, invite);
  if (result.status === "sent") return "emailed";
  log.error(`Parley: the invite email to ${invite.email} could not be sent: ${result.error}`);
  return "email_failed";
}
