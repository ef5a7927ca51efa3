import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

describe("password hashing", () => {
  it("accepts the password that was hashed and nothing else", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", hash)).toBe(false);
  });

  it("refuses every password for a person with no password (single sign-on only)", async () => {
    expect(await verifyPassword("", null)).toBe(false);
    expect(await verifyPassword("anything", undefined)).toBe(false);
  });
});
