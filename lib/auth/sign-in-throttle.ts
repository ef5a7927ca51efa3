import type { Db } from "@/db/client";
import { blockedUntil, clearSignInFailures, deleteForgottenSignInFailures, recordSignInFailure, type ThrottleRule } from "@/db/queries/sign-in-throttle";
import { normaliseEmail } from "@/db/queries/users";

const MINUTE = 60_000;

/**
 * One account: 5 wrong passwords, then a minute's wait, doubling with each further wrong password up
 * to 15 minutes. Bounded, so that someone who knows only an email can keep its owner out for at most
 * a quarter of an hour at a time; counts start again after an hour without a failure.
 */
export const ACCOUNT_RULE: ThrottleRule = { allowance: 5, firstBlockMs: MINUTE, longestBlockMs: 15 * MINUTE, forgetAfterMs: 60 * MINUTE };

/** One client address: more allowance (an office behind one address has many people), the same waits. */
export const ADDRESS_RULE: ThrottleRule = { allowance: 20, firstBlockMs: MINUTE, longestBlockMs: 15 * MINUTE, forgetAfterMs: 60 * MINUTE };

/** Who is signing in, as the throttle counts them: the email typed, and the client's address when known. */
export interface SignInAttempt {
  email: string;
  address: string | null;
}

/**
 * Loopback is everyone at once when a reverse proxy on the same machine forwards to Parley: counting
 * it would let anyone's wrong passwords keep everybody out. Such attempts are counted by account only.
 */
function isLoopback(address: string): boolean {
  return address === "::1" || /^127\./.test(address);
}

function keysOf(attempt: SignInAttempt): { key: string; rule: ThrottleRule }[] {
  return [
    { key: `account:${normaliseEmail(attempt.email)}`, rule: ACCOUNT_RULE },
    ...(attempt.address && !isLoopback(attempt.address) ? [{ key: `address:${attempt.address}`, rule: ADDRESS_RULE }] : []),
  ];
}

/** A sign-in refused before its password is looked at: until when, and how it is said. */
export interface SignInBlock {
  until: Date;
  /** Whole minutes left, at least 1: what the person is told. */
  minutes: number;
}

function block(until: Date | null, now: Date): SignInBlock | null {
  return until ? { until, minutes: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / MINUTE)) } : null;
}

/**
 * Whether this attempt must wait: its account or its address is blocked. Checked before the password
 * (the right password during a block is refused too, and a blocked guess costs no hashing). One query.
 */
export async function signInBlock(db: Db, attempt: SignInAttempt, now: Date = new Date()): Promise<SignInBlock | null> {
  return block(await blockedUntil(db, keysOf(attempt).map(({ key }) => key), now), now);
}

/**
 * Counts a wrong password against the account and the address (in one statement, in the database,
 * so it holds across instances and restarts); returns the block it brings on, if any.
 */
export async function recordFailedSignIn(db: Db, attempt: SignInAttempt, now: Date = new Date()): Promise<SignInBlock | null> {
  return block(await recordSignInFailure(db, keysOf(attempt), now), now);
}

/**
 * The right password: the account's count starts again. The address's does not (one account of
 * one's own must not reset the count of guesses at everyone else's).
 */
export async function recordSuccessfulSignIn(db: Db, attempt: SignInAttempt): Promise<void> {
  await clearSignInFailures(db, `account:${normaliseEmail(attempt.email)}`);
}

/** Forgets counts that would start again anyway (called where it is cheap: at sign-out). */
export async function forgetOldSignInFailures(db: Db, now: Date = new Date()): Promise<number> {
  return deleteForgottenSignInFailures(db, now, Math.max(ACCOUNT_RULE.forgetAfterMs, ADDRESS_RULE.forgetAfterMs));
}

/** What a person is told while blocked, in plain words. */
export function tooManyAttemptsMessage(minutes: number): string {
  return `Too many attempts — try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
