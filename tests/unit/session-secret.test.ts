import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { authSecret, checkAuthSecret, isDemoMode, MIN_AUTH_SECRET_LENGTH } from "@/lib/config";
import { prepareServer } from "@/lib/startup";

const LONG_ENOUGH = "s3cret-".repeat(6);

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the session secret", () => {
  it("is AUTH_SECRET when set", () => {
    expect(authSecret({ AUTH_SECRET: LONG_ENOUGH, DATABASE_URL: "postgres://x" })).toBe(LONG_ENOUGH);
  });

  it("is generated once per demo data folder and kept across restarts", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parley-secret-"));
    try {
      const first = authSecret({ PARLEY_DATA_DIR: dir });
      expect(first.length).toBeGreaterThanOrEqual(40);
      expect(authSecret({ PARLEY_DATA_DIR: dir })).toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("must be set explicitly on a real database, with a message saying how", () => {
    expect(() => authSecret({ DATABASE_URL: "postgres://db/parley" })).toThrow(/AUTH_SECRET/);
  });

  it("decides demo mode by DATABASE_URL alone", () => {
    expect(isDemoMode({})).toBe(true);
    expect(isDemoMode({ DATABASE_URL: "  " })).toBe(true);
    expect(isDemoMode({ DATABASE_URL: "postgres://db/parley" })).toBe(false);
  });
});

describe("a short session secret", () => {
  it.each([
    ["on a real database", { DATABASE_URL: "postgres://db/parley" }],
    ["in demo mode", {}],
  ])("is refused %s, naming AUTH_SECRET and the length it needs", (_where, env) => {
    for (const short of ["a", "x".repeat(MIN_AUTH_SECRET_LENGTH - 1)]) {
      const expected = new RegExp(`^AUTH_SECRET is too short \\(${short.length} characters?\\): .*at least ${MIN_AUTH_SECRET_LENGTH} characters`);
      expect(() => checkAuthSecret({ ...env, AUTH_SECRET: short })).toThrow(expected);
      expect(() => authSecret({ ...env, AUTH_SECRET: short })).toThrow(expected);
    }
    expect(() => checkAuthSecret({ ...env, AUTH_SECRET: "x".repeat(MIN_AUTH_SECRET_LENGTH) })).not.toThrow();
  });

  it("kept in a demo data folder is refused, naming the file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parley-secret-"));
    try {
      writeFileSync(path.join(dir, "auth-secret"), "short\n");
      expect(() => authSecret({ PARLEY_DATA_DIR: dir })).toThrow(`${path.join(dir, "auth-secret")} is too short (5 characters)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops the server at start, before it opens the database", async () => {
    // Nothing listens on this address: reaching for the database would fail with another message.
    vi.stubEnv("DATABASE_URL", "postgres://postgres@127.0.0.1:9/nowhere");
    vi.stubEnv("AUTH_SECRET", "a");
    const lines: string[] = [];
    await expect(prepareServer((line) => lines.push(line))).rejects.toThrow(/^AUTH_SECRET is too short \(1 character\)/);
    expect(lines).toEqual([]);
  });
});
