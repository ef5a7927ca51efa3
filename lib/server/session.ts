import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/database";
import type { User } from "@/db/schema";
import { hasAnyRole, type Role } from "@/lib/auth/roles";
import { authSecret } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { httpStatusOf } from "./http-status";
import { REQUEST_PATH_HEADER } from "./request-path";
import { sessionClaims } from "./session-token";
import { personForSession } from "@/lib/auth/session-person";

/**
 * The signed-in person, read fresh from the database (so a changed role, a removed or deactivated
 * person, or a session begun before their sessions were ended takes effect at once), or null. The
 * session cookie is the one next-auth signs people in with, read without running its session
 * endpoint (see {@link sessionClaims}). Read once per page render: the layout and the page both ask
 * (React's `cache` is per request, and does nothing in actions).
 */
export const currentUser = cache(async (): Promise<User | null> => {
  const claims = await sessionClaims(await cookies(), () => authSecret());
  // A session from an answer link is no session here: only its question's page and answer take it.
  if (claims?.answerOnly) return null;
  return personForSession(await getDb(), claims);
});

/**
 * A session from an email's answer link: its person and the one question it may answer, or null for
 * any other session (or none). Only that question's page and its answer action accept it.
 */
export const currentAnswerLinkSession = cache(async (): Promise<{ user: User; questionId: string } | null> => {
  const claims = await sessionClaims(await cookies(), () => authSecret());
  if (!claims?.answerOnly) return null;
  // Deactivation ends these too, as it ends every session.
  const user = await personForSession(await getDb(), claims);
  return user ? { user, questionId: claims.answerOnly } : null;
});

/**
 * {@link authorize} for answering one question: a full session, or a session from an answer link
 * for exactly `questionId`. Throws `AppError` `unauthorized` otherwise.
 */
export async function authorizeAnswering(questionId: unknown): Promise<{ user: User; limited: boolean }> {
  const user = await currentUser();
  if (user) return { user, limited: false };
  const limited = await currentAnswerLinkSession();
  if (limited && limited.questionId === questionId) return { user: limited.user, limited: true };
  throw new AppError("unauthorized");
}

/** {@link authorizeAnswering} for the question's page: anyone else goes to sign-in (and back afterwards). */
export async function requireAnsweringPageUser(questionId: string): Promise<{ user: User; limited: boolean }> {
  try {
    return await authorizeAnswering(questionId);
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") return { user: await requirePageUser(), limited: false };
    throw error;
  }
}

/**
 * The one authorisation check that pages, server actions and route handlers all use: the signed-in
 * person holding at least one of `roles` (any signed-in person when none are given). Throws
 * `AppError` with code `unauthorized` or `forbidden`.
 */
export async function authorize(roles: readonly Role[] = []): Promise<User> {
  const user = await currentUser();
  if (!user) throw new AppError("unauthorized");
  if (!hasAnyRole(user.roles, roles)) throw new AppError("forbidden");
  return user;
}

/** {@link authorize} for pages: a visitor goes to sign-in (and back afterwards), the wrong role gets a 403 page. */
export async function requirePageUser(roles: readonly Role[] = []): Promise<User> {
  try {
    return await authorize(roles);
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") {
      const path = (await headers()).get(REQUEST_PATH_HEADER);
      redirect(path && path !== "/" ? `/login?callbackUrl=${encodeURIComponent(path)}` : "/login");
    }
    if (error instanceof AppError && error.code === "forbidden") forbidden();
    throw error;
  }
}

/** {@link authorize} for route handlers: the refusal as a JSON response instead of a throw. */
export async function authorizeRequest(roles: readonly Role[] = []): Promise<User | Response> {
  try {
    return await authorize(roles);
  } catch (error) {
    if (error instanceof AppError) {
      return Response.json({ error: { code: error.code, message: error.message } }, { status: httpStatusOf(error.code) });
    }
    throw error;
  }
}
