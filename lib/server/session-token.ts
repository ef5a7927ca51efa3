import { decode } from "next-auth/jwt";
import { SESSION_ID_CLAIM } from "@/lib/auth/session-person";

/** next-auth's session cookie: with the `__Secure-` prefix when served over https. The name is also the key's salt. */
export const SESSION_COOKIE_NAMES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

/** The cookies of a request, as `next/headers`' `cookies()` gives them. */
export interface CookieJar {
  get(name: string): { value: string } | undefined;
}

/** How many verified tokens are remembered; the oldest is forgotten first. */
const REMEMBERED_TOKENS = 5_000;

/**
 * The claim that limits a session to answering one question: a session from an email's answer link
 * carries that question's id in it, and nothing but that question's page and answer accept it.
 */
export const ANSWER_ONLY_CLAIM = "answerOnly";

/**
 * The claim fixing when a session from an answer link ends (ms since the epoch): the link's own
 * window, set when the link is followed. next-auth re-signs a session's token for a whole session
 * lifetime whenever its session endpoint is read; this claim is kept through that, and the token is
 * never valid past it (see {@link sessionLifetimeSeconds}).
 */
export const ANSWER_UNTIL_CLAIM = "answerUntil";

/**
 * How long a token about to be signed may last: `maxAge` (a whole session lifetime), except that a
 * session from an answer link never outlives its {@link ANSWER_UNTIL_CLAIM} — one without that
 * claim, or past it, gets no time at all.
 */
export function sessionLifetimeSeconds(token: Record<string, unknown> | null | undefined, maxAge: number, now: number = Date.now()): number {
  if (token?.[ANSWER_ONLY_CLAIM] === undefined) return maxAge;
  const until = token[ANSWER_UNTIL_CLAIM];
  if (typeof until !== "number" || !Number.isFinite(until)) return 0;
  return Math.max(0, Math.min(maxAge, Math.floor((until - now) / 1000)));
}

/**
 * A verified session: whose it is, which session (its `sid`, which signing out ends; null in a token
 * from before sessions had one), when they signed in (ms; null when the token does not say), and —
 * for a session from an answer link — the one question it may answer.
 */
export interface SessionClaims {
  userId: string;
  sessionId: string | null;
  signedInAt: number | null;
  answerOnly: string | null;
}

/** Tokens already decrypted and verified: whose they are, when they signed in and until when they hold. */
const verified = new Map<string, SessionClaims & { expiresAt: number }>();

/** A session cookie's value; next-auth splits one over 4 kB into `name.0`, `name.1`, … */
function cookieValue(jar: CookieJar, name: string): string | undefined {
  const whole = jar.get(name)?.value;
  if (whole) return whole;
  let joined = "";
  for (let index = 0; ; index++) {
    const chunk = jar.get(`${name}.${index}`)?.value;
    if (chunk === undefined) return joined || undefined;
    joined += chunk;
  }
}

/**
 * The user id of a request's session, or null: the session cookie decrypted and checked (expiry
 * included) exactly as next-auth decodes it. Unlike `auth()`, which runs next-auth's whole session
 * endpoint — and encrypts a refreshed cookie a server component or action cannot send — this only
 * reads. A token that verified once is remembered (the whole token is the key, so only a token that
 * verified can match) until it expires: a person's next request costs no cryptography. A session
 * limited to answering one question is no session here (see {@link sessionClaims}).
 */
export async function sessionUserId(jar: CookieJar, secret: () => string, now: number = Date.now()): Promise<string | null> {
  const claims = await sessionClaims(jar, secret, now);
  return claims && claims.answerOnly === null ? claims.userId : null;
}

/**
 * {@link sessionUserId} with the session's id, when the person signed in — the token's `signedInAt` (set at sign-in and
 * kept when next-auth refreshes the token), else its issue time — and the session's limit: the one
 * question a session from an answer link may answer.
 */
export async function sessionClaims(jar: CookieJar, secret: () => string, now: number = Date.now()): Promise<SessionClaims | null> {
  for (const name of SESSION_COOKIE_NAMES) {
    const token = cookieValue(jar, name);
    if (!token) continue;
    const key = `${name}\u0000${token}`;
    const known = verified.get(key);
    if (known) {
      if (known.expiresAt > now) return { userId: known.userId, sessionId: known.sessionId, signedInAt: known.signedInAt, answerOnly: known.answerOnly };
      verified.delete(key);
    }
    const payload = await decode({ token, secret: secret(), salt: name }).catch(() => null);
    const userId = payload?.sub;
    if (typeof userId !== "string" || typeof payload?.exp !== "number") continue;
    if (payload.exp * 1000 <= now) continue;
    const limit = payload[ANSWER_ONLY_CLAIM];
    // A limit that is there but not a question's id limits the session to nothing.
    if (limit !== undefined && typeof limit !== "string") continue;
    const answerOnly = typeof limit === "string" ? limit : null;
    let expiresAt = payload.exp * 1000;
    if (answerOnly !== null) {
      // Held to its link's window whatever the token's own expiry says (a refresh may have moved it).
      const until = payload[ANSWER_UNTIL_CLAIM];
      if (typeof until !== "number" || until <= now) continue;
      expiresAt = Math.min(expiresAt, until);
    }
    const signedInAt = typeof payload.signedInAt === "number" ? payload.signedInAt : typeof payload.iat === "number" ? payload.iat * 1000 : null;
    const sid = payload[SESSION_ID_CLAIM];
    const sessionId = typeof sid === "string" ? sid : null;
    if (verified.size >= REMEMBERED_TOKENS) verified.delete(verified.keys().next().value!);
    verified.set(key, { userId, sessionId, signedInAt, answerOnly, expiresAt });
    return { userId, sessionId, signedInAt, answerOnly };
  }
  return null;
}
