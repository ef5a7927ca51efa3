import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { type CookieJar, sessionUserId } from "@/lib/server/session-token";

const SECRET = "a-session-secret-long-enough-for-the-tests-0123456789";
const NAME = "authjs.session-token";

function jar(cookies: Record<string, string>): CookieJar {
  return { get: (name) => (name in cookies ? { value: cookies[name]! } : undefined) };
}

async function tokenFor(userId: string, options: { secret?: string; salt?: string; maxAge?: number } = {}) {
  return encode({ token: { sub: userId, name: "Sam" }, secret: options.secret ?? SECRET, salt: options.salt ?? NAME, ...(options.maxAge ? { maxAge: options.maxAge } : {}) });
}

describe("the session cookie", () => {
  it("names the person next-auth signed in, under either cookie name", async () => {
    const userId = randomUUID();
    expect(await sessionUserId(jar({ [NAME]: await tokenFor(userId) }), () => SECRET)).toBe(userId);
    const secure = "__Secure-authjs.session-token";
    expect(await sessionUserId(jar({ [secure]: await tokenFor(userId, { salt: secure }) }), () => SECRET)).toBe(userId);
  });

  it("is read when next-auth split it into chunks", async () => {
    const userId = randomUUID();
    const token = await tokenFor(userId);
    const half = Math.floor(token.length / 2);
    expect(await sessionUserId(jar({ [`${NAME}.0`]: token.slice(0, half), [`${NAME}.1`]: token.slice(half) }), () => SECRET)).toBe(userId);
  });

  it("is nobody when missing, tampered with, sealed with another secret, or moved to the other cookie name", async () => {
    const userId = randomUUID();
    const token = await tokenFor(userId);
    expect(await sessionUserId(jar({}), () => SECRET)).toBeNull();
    const at = token.length - 10;
    const tampered = `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
    expect(await sessionUserId(jar({ [NAME]: tampered }), () => SECRET)).toBeNull();
    expect(await sessionUserId(jar({ [NAME]: await tokenFor(userId, { secret: "another-secret-entirely-0123456789-abcdef" }) }), () => SECRET)).toBeNull();
    expect(await sessionUserId(jar({ "__Secure-authjs.session-token": token }), () => SECRET)).toBeNull();
  });

  it("stops counting once it expires, even after it was verified", async () => {
    const userId = randomUUID();
    const cookies = jar({ [NAME]: await tokenFor(userId, { maxAge: 60 }) });
    expect(await sessionUserId(cookies, () => SECRET)).toBe(userId);
    expect(await sessionUserId(cookies, () => SECRET, Date.now() + 61_000)).toBeNull();
  });

  it("costs no decryption once verified: a later request does not need the secret", async () => {
    const userId = randomUUID();
    const cookies = jar({ [NAME]: await tokenFor(userId) });
    expect(await sessionUserId(cookies, () => SECRET)).toBe(userId);
    expect(
      await sessionUserId(cookies, () => {
        throw new Error("decrypted again");
      }),
    ).toBe(userId);
  });
});
