import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { authSecret, isDemoMode } from "@/lib/config";

describe("the session secret", () => {
  it("is AUTH_SECRET when set", () => {
    expect(authSecret({ AUTH_SECRET: "s3cret", DATABASE_URL: "postgres://x" })).toBe("s3cret");
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
