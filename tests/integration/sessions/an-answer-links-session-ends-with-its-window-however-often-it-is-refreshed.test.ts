import { randomUUID } from "node:crypto";
import { decode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { User } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/tests/support/databases";
import { addPeople } from "../people/people-fixture";

// The session an emailed answer link starts (lib/server/answer-session.ts), refreshed through next-auth's
// own session endpoint (GET /api/auth/session) as any browser or script holding the cookie can.

const SECRET = "a-session-secret-long-enough-for-the-tests-0123456789";
const COOKIE = "authjs.session-token";
const HOUR = 60 * 60_000;

const state = vi.hoisted(() => ({ database: undefined as TestDatabase | undefined, jar: new Map<string, string>() }));

vi.mock("@/lib/database", async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: async () => state.database!.db }));
// next-auth's entry module needs Next.js's runtime; the session endpoint is @auth/core's (handleAuthRequest).
vi.mock("next-auth", async () => ({
  default: () => ({ handlers: {}, auth: () => null, signIn: () => null, signOut: () => null }),
  CredentialsSignin: (await import("@auth/core/errors")).CredentialsSignin,
}));
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({
    get: (name: string) => (state.jar.has(name) ? { name, value: state.jar.get(name)! } : undefined),
    set: (name: string, value: string) => void state.jar.set(name, value),
    delete: (name: string) => void state.jar.delete(name),
  }),
}));

const { startAnswerSession } = await import("@/lib/server/answer-session");
const { handleAuthRequest } = await import("@/lib/server/auth");
const { sessionClaims } = await import("@/lib/server/session-token");

/** Reads next-auth's session endpoint with `token` as the cookie; returns the cookie it sets, if any. */
async function refresh(token: string): Promise<string | undefined> {
  const response = await handleAuthRequest(new Request("http://localhost:3000/api/auth/session", { headers: { cookie: `${COOKIE}=${token}` } }));
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const [name, ...value] = pair!.split("=");
    if (name === COOKIE) return value.join("=");
  }
  return undefined;
}

function jar(token: string) {
  return { get: (name: string) => (name === COOKIE ? { value: token } : undefined) };
}

describe("an answer link's session", () => {
  let sam: User;
  const previousSecret = process.env.AUTH_SECRET;

  beforeAll(async () => {
    process.env.AUTH_SECRET = SECRET;
    state.database = await createTestDatabase("pglite");
    [sam] = (await addPeople(state.database.db, [{ name: "Sam Rivera", roles: ["assignee"] }])) as [User];
  });

  afterAll(async () => {
    await state.database?.close();
    if (previousSecret === undefined) delete process.env.AUTH_SECRET;
    else process.env.AUTH_SECRET = previousSecret;
  });

  it("keeps the end its link gave it when next-auth's session endpoint refreshes it, again and again", async () => {
    const questionId = randomUUID();
    const windowEnds = new Date(Date.now() + 24 * HOUR);
    await startAnswerSession(sam, questionId, windowEnds);
    let token = state.jar.get(COOKIE)!;
    expect(token).toBeDefined();

    for (let round = 0; round < 3; round++) {
      const refreshed = await refresh(token);
      expect(refreshed).toBeDefined();
      token = refreshed!;
      const payload = await decode({ token, secret: SECRET, salt: COOKIE });
      // Not a whole session lifetime (30 days) from now: no later than the link's window.
      expect(payload!.exp! * 1000).toBeLessThanOrEqual(windowEnds.getTime());
      expect(payload!.exp! * 1000).toBeGreaterThan(windowEnds.getTime() - HOUR);
    }

    // Still the one question's session within the window, and no session at all after it.
    expect(await sessionClaims(jar(token), () => SECRET, windowEnds.getTime() - HOUR)).toMatchObject({ userId: sam.id, answerOnly: questionId });
    expect(await sessionClaims(jar(token), () => SECRET, windowEnds.getTime() + 60_000)).toBeNull();
  });
});
