import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { ANSWER_ONLY_CLAIM, ANSWER_UNTIL_CLAIM, type CookieJar, sessionClaims, sessionUserId } from "@/lib/server/session-token";

const SECRET = "a-session-secret-long-enough-for-the-tests-0123456789";
const NAME = "authjs.session-token";

function jar(cookies: Record<string, string>): CookieJar {
  return { get: (name) => (name in cookies ? { value: cookies[name]! } : undefined) };
}

describe("a session from an answer link", () => {
  it("is no full session: it names its person only with the one question it may answer", async () => {
    const userId = randomUUID();
    const questionId = randomUUID();
    const token = await encode({ token: { sub: userId, name: "Sam", [ANSWER_ONLY_CLAIM]: questionId, [ANSWER_UNTIL_CLAIM]: Date.now() + 600_000 }, secret: SECRET, salt: NAME, maxAge: 600 });
    const cookies = jar({ [NAME]: token });
    expect(await sessionUserId(cookies, () => SECRET)).toBeNull();
    expect(await sessionClaims(cookies, () => SECRET)).toMatchObject({ userId, answerOnly: questionId });
    // Remembered once verified, and still limited.
    expect(await sessionUserId(cookies, () => SECRET)).toBeNull();
  });

  it("without the end of its link's window, or past it, is refused altogether", async () => {
    const questionId = randomUUID();
    const windowless = await encode({ token: { sub: randomUUID(), [ANSWER_ONLY_CLAIM]: questionId }, secret: SECRET, salt: NAME, maxAge: 600 });
    expect(await sessionClaims(jar({ [NAME]: windowless }), () => SECRET)).toBeNull();
    const ended = await encode({ token: { sub: randomUUID(), [ANSWER_ONLY_CLAIM]: questionId, [ANSWER_UNTIL_CLAIM]: Date.now() - 1 }, secret: SECRET, salt: NAME, maxAge: 600 });
    expect(await sessionClaims(jar({ [NAME]: ended }), () => SECRET)).toBeNull();
  });

  it("whose limit is not a question's id is refused altogether", async () => {
    const token = await encode({ token: { sub: randomUUID(), [ANSWER_ONLY_CLAIM]: 42, [ANSWER_UNTIL_CLAIM]: Date.now() + 600_000 }, secret: SECRET, salt: NAME, maxAge: 600 });
    expect(await sessionClaims(jar({ [NAME]: token }), () => SECRET)).toBeNull();
  });
});
