import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { isWebhookSecret, newWebhookSecret } from "@/lib/notifiers";

const bytes = (count: number) => Buffer.alloc(count, 7).toString("base64");

describe("a webhook secret", () => {
  it("is made as whsec_ and 32 random bytes in base64, a new one each time", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it("as made is accepted here and by the standardwebhooks package", () => {
    const secret = newWebhookSecret();
    expect(isWebhookSecret(secret)).toBe(true);
    expect(() => new Webhook(secret)).not.toThrow();
  });

  it.each([
    ["24 bytes (which need no padding)", `whsec_${bytes(24)}`],
    ["64 bytes", `whsec_${bytes(64)}`],
  ])("is accepted with %s", (_, secret) => {
    expect(isWebhookSecret(secret)).toBe(true);
  });

  it.each([
    ["without the whsec_ prefix", bytes(32)],
    ["with characters base64 does not have", `whsec_${bytes(32).replace("B", "!")}`],
    ["shorter than 24 bytes", `whsec_${bytes(23)}`],
    ["longer than 64 bytes", `whsec_${bytes(65)}`],
    ["unpadded where base64 needs padding", `whsec_${bytes(32).replace(/=+$/, "")}`],
    ["in URL-safe base64", `whsec_${Buffer.alloc(32, 0xfb).toString("base64url")}=`],
    ["with a space inside", `whsec_${bytes(32).slice(0, 20)} ${bytes(32).slice(20)}`],
    ["a second spelling of the same bytes", `whsec_${bytes(32).replace(/c=$/, "d=")}`],
    ["just the prefix", "whsec_"],
    ["an old Parley secret (openssl rand -hex 32)", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
  ])("is refused %s", (_, secret) => {
    expect(isWebhookSecret(secret)).toBe(false);
  });
});
