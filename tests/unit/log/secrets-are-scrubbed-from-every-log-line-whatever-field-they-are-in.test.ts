import { describe, expect, it } from "vitest";
import { createLogger, REDACTED, scrubSecrets, scrubText } from "@/lib/log";

// Secrets shaped as Parley makes them: lib/api-keys.ts (`pk_`/`pt_` + 24 random bytes in base64url) and
// lib/notifiers/standard-webhook.ts (`whsec_` + 32 random bytes in base64).
const AGENT_KEY = "pk_Yq3vN8tW0bX2cD4eF6gH8iJ0kL2mN4oP";
const PERSONAL_TOKEN = "pt_Zr5uM7sV9aC1dE3fG5hI7jK9lM1nO3pQ";
const WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqXRENmWJNLwTpJXN+0Yp3mAfAqXsLVxGU=";
const PASSWORD = "correct-horse-battery-staple";

/** Every line a JSON logger writes while `act` logs, parsed. */
function linesOf(act: (log: ReturnType<typeof createLogger>) => void): Record<string, unknown>[] {
  const written: string[] = [];
  act(createLogger({ format: "json", level: "info" }, (text) => void written.push(text)));
  return written.map((text) => JSON.parse(text) as Record<string, unknown>);
}

describe("a log line", () => {
  it("keeps the prefix of an agent key or personal token and drops the rest, wherever it is in the text", () => {
    expect(scrubText(`key ${AGENT_KEY} and token ${PERSONAL_TOKEN}.`)).toBe("key pk_*** and token pt_***.");
  });

  it("leaves a screen's short prefix of a key (pk_ and 7 characters) as it is", () => {
    expect(scrubText("the key pk_Yq3vN8t… was revoked")).toBe("the key pk_Yq3vN8t… was revoked");
  });

  it("drops a webhook signing secret", () => {
    expect(scrubText(`signing with ${WEBHOOK_SECRET} now`)).toBe("signing with whsec_*** now");
  });

  it("drops a bearer token, whatever it is", () => {
    expect(scrubText("Authorization: Bearer some.opaque-token_42")).not.toContain("some.opaque-token_42");
    expect(scrubText("sent bearer abc123def to the server")).toBe("sent bearer *** to the server");
  });

  it("keeps a URL's user name and drops its password", () => {
    expect(scrubText("connecting to postgres://parley:s3cr3t@db.internal:5432/parley failed")).toBe("connecting to postgres://parley:***@db.internal:5432/parley failed");
  });

  it("drops a password that holds an @ of its own, and a user name that is all there is (a token in a URL)", () => {
    expect(scrubText("postgres://parley:p@ss@db.internal/parley")).toBe("postgres://parley:***@db.internal/parley");
    expect(scrubText("https://ghp_abcdef123456@github.com/org/repo.git")).toBe("https://***@github.com/org/repo.git");
  });

  it("drops the value of a password, secret, token or key written as name=value or as JSON text", () => {
    expect(scrubText(`PARLEY_WEBHOOK_SECRET=abc123 password=${PASSWORD} ?access_token=xyz&page=2`)).toBe("PARLEY_WEBHOOK_SECRET=*** password=*** ?access_token=***&page=2");
    expect(scrubText(`{"email":"ada@parley.test","password":"${PASSWORD}"}`)).toBe('{"email":"ada@parley.test","password":"***"}');
  });

  it("drops a JSON web token (a session cookie's value)", () => {
    expect(scrubText("session eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..c2FsdA.Y2lwaGVy.dGFn ended")).toBe("session *** ended");
  });

  it("drops the one-time token of an answer link or an invite from its address", () => {
    expect(scrubText("GET https://parley.example/a/3q2-7wZxV1cY8bN0mK4pL6sT9uR2eA5dF8gH1jQ0oW3 failed")).toBe("GET https://parley.example/a/*** failed");
    expect(scrubText("rendering /invite/Xy9_Ab8-Cd7Ef6Gh5Ij4Kl3Mn2Op1Qr0St9Uv8Wx7Yz6")).toBe("rendering /invite/***");
  });

  it("drops a password's bcrypt hash, as a failed query's parameters may show it", () => {
    expect(scrubText("params: ada@parley.test,$2b$12$KIXQJ4Qm5Ew8bJ0b1o9R0eZk3cJQyqX8m7f0M2uY1T4d6gkV6a1xS,admin")).toBe("params: ada@parley.test,$2b$***,admin");
  });

  it("leaves ordinary words and ids alone", () => {
    const ordinary = "Parley API: GET /api/v1/asks/0190a4b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b 200; send a personal token (pt_…): make one on your profile";
    expect(scrubText(ordinary)).toBe(ordinary);
  });

  it("redacts a field named like a secret at any depth, and keeps counts that are only named so", () => {
    expect(
      scrubSecrets({ password: PASSWORD, headers: { Authorization: "Basic YWRhOnB3", cookie: "authjs.session-token=abc", "x-api-key": "k" }, user: { webhookSecret: "w" }, usage: { inputTokens: 12 } }),
    ).toEqual({ password: REDACTED, headers: { Authorization: REDACTED, cookie: REDACTED, "x-api-key": REDACTED }, user: { webhookSecret: REDACTED }, usage: { inputTokens: 12 } });
  });

  it("is scrubbed as it is written, in its message, its fields and an error's message and stack", () => {
    const [line] = linesOf((log) =>
      log.error(
        { err: new Error(`the key ${AGENT_KEY} was refused`, { cause: new Error(`webhook ${WEBHOOK_SECRET}`) }), body: { email: "ada@parley.test", password: PASSWORD }, url: "postgres://parley:s3cr3t@db/parley" },
        `failed for Bearer ${PERSONAL_TOKEN}`,
      ),
    );
    const text = JSON.stringify(line);
    for (const secret of [AGENT_KEY, PERSONAL_TOKEN, WEBHOOK_SECRET, PASSWORD, "s3cr3t"]) expect(text).not.toContain(secret);
    expect(line).toMatchObject({ msg: "failed for Bearer ***", body: { email: "ada@parley.test", password: REDACTED }, url: "postgres://parley:***@db/parley" });
    expect(line!.err).toMatchObject({ type: "Error", message: "the key pk_*** was refused: webhook whsec_***", stack: expect.stringContaining("caused by: Error: webhook whsec_***") });
  });

  it("is scrubbed in the text format too", () => {
    const written: string[] = [];
    createLogger({ format: "text", level: "info" }, (text) => void written.push(text)).warn({ token: PERSONAL_TOKEN }, `retrying with ${AGENT_KEY}`);
    expect(written).toEqual([`WARN retrying with pk_***  token=${REDACTED}\n`]);
  });
});
