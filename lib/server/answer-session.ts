import { cookies, headers } from "next/headers";
import { encode } from "next-auth/jwt";
import type { User } from "@/db/schema";
import { newSessionId, SESSION_ID_CLAIM } from "@/lib/auth/session-person";
import { authSecret } from "@/lib/config";
import { ANSWER_ONLY_CLAIM, ANSWER_UNTIL_CLAIM, SESSION_COOKIE_NAMES } from "./session-token";

/** Whether this request reached Parley over https (next-auth then names its cookie `__Secure-…`). */
async function overHttps(): Promise<boolean> {
  const forwarded = (await headers()).get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (forwarded) return forwarded === "https";
  return /^https:/i.test(process.env.AUTH_URL?.trim() ?? "");
}

/**
 * Signs `user` in with a session limited to answering `questionId`: next-auth's own session cookie,
 * encoded with next-auth's `encode` exactly as it encodes one (same cookie name and salt, same
 * secret), carrying the {@link ANSWER_ONLY_CLAIM} claim and a session id (so signing out ends it, as
 * it ends any session), and lasting until `expiresAt` — fixed in the token as {@link ANSWER_UNTIL_CLAIM},
 * so no refresh of the session carries it further.
 */
export async function startAnswerSession(user: Pick<User, "id" | "name" | "email">, questionId: string, expiresAt: Date, now: Date = new Date()): Promise<void> {
  const secure = await overHttps();
  const name = secure ? SESSION_COOKIE_NAMES[0] : SESSION_COOKIE_NAMES[1];
  const maxAge = Math.max(1, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  const token = await encode({ token: { sub: user.id, name: user.name, email: user.email, [ANSWER_ONLY_CLAIM]: questionId, [ANSWER_UNTIL_CLAIM]: expiresAt.getTime(), [SESSION_ID_CLAIM]: newSessionId() }, secret: authSecret(), salt: name, maxAge });
  const jar = await cookies();
  // A full session under the other name would otherwise be read first.
  for (const other of SESSION_COOKIE_NAMES) if (other !== name && jar.get(other)) jar.delete(other);
  jar.set(name, token, { httpOnly: true, sameSite: "lax", secure, path: "/", expires: expiresAt });
}
