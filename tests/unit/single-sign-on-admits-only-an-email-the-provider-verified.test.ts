import { describe, expect, it, vi } from "vitest";
import { identityFromClaims, resolveOidcIdentity } from "@/lib/auth/oidc-identity";
import { captureLog } from "@/tests/support/captured-log";

const EMAIL = "ada@parley.test";

describe("single sign-on's identity", () => {
  it("is confirmed only when email_verified is the boolean true", () => {
    expect(identityFromClaims({ sub: "1", email: EMAIL, email_verified: true })).toEqual({ status: "confirmed", email: EMAIL });
  });

  it.each([
    ["missing", {}],
    ["false", { email_verified: false }],
    ["the string \"false\"", { email_verified: "false" }],
    ["the string \"true\"", { email_verified: "true" }],
    ["1", { email_verified: 1 }],
    ["null", { email_verified: null }],
  ])("is unconfirmed when email_verified is %s", (_what, claim) => {
    expect(identityFromClaims({ sub: "1", email: EMAIL, ...claim })).toEqual({ status: "unconfirmed", email: EMAIL });
  });

  it("has no email when the claims have none, or not as text", () => {
    for (const email of [undefined, "", "  ", 42, [EMAIL]]) {
      expect(identityFromClaims({ sub: "1", email, email_verified: true })).toEqual({ status: "no_email" });
    }
  });

  it("is read from the ID token, without asking UserInfo, when the ID token has an email", async () => {
    const readUserInfo = vi.fn(async () => ({ email: "other@parley.test", email_verified: true }));
    expect(await resolveOidcIdentity({ sub: "1", email: EMAIL, email_verified: true }, readUserInfo)).toEqual({ status: "confirmed", email: EMAIL });
    expect(await resolveOidcIdentity({ sub: "1", email: EMAIL }, readUserInfo)).toEqual({ status: "unconfirmed", email: EMAIL });
    expect(readUserInfo).not.toHaveBeenCalled();
  });

  it("is read from UserInfo when the ID token has no email, by the same rule", async () => {
    expect(await resolveOidcIdentity({ sub: "1" }, async () => ({ sub: "1", email: EMAIL, email_verified: true }))).toEqual({ status: "confirmed", email: EMAIL });
    expect(await resolveOidcIdentity({ sub: "1" }, async () => ({ sub: "1", email: EMAIL, email_verified: "false" }))).toEqual({ status: "unconfirmed", email: EMAIL });
    expect(await resolveOidcIdentity({ sub: "1" }, async () => ({ sub: "1" }))).toEqual({ status: "no_email" });
  });

  it("has no email when UserInfo cannot be read", async () => {
    const log = captureLog();
    try {
      expect(await resolveOidcIdentity({ sub: "1" }, async () => Promise.reject(new Error("unexpected sub")))).toEqual({ status: "no_email" });
      expect(log.lines()).toEqual([{ level: "error", text: expect.stringContaining("unexpected sub") }]);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
