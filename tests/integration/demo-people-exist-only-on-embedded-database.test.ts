import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeDatabase, getDatabase } from "@/db/client";
import { findUserByEmail, listUsers } from "@/db/queries/users";
import { verifyPassword } from "@/lib/auth/password";
import { DEMO_USERS } from "@/lib/example/demo-users";
import { prepareServer } from "@/lib/startup";
import { createPostgresDatabase, TEST_POSTGRES_URL } from "../support/databases";

afterEach(async () => {
  await closeDatabase();
  vi.unstubAllEnvs();
});

describe("starting Parley on the embedded database", () => {
  it("creates the demo people, whose printed passwords sign them in", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-demo-"));
    try {
      vi.stubEnv("DATABASE_URL", "");
      vi.stubEnv("PARLEY_DATA_DIR", dataDir);
      const printed: string[] = [];
      await prepareServer((line) => printed.push(line));

      const { db } = await getDatabase();
      for (const demo of DEMO_USERS) {
        const person = await findUserByEmail(db, demo.email);
        expect(person?.roles).toEqual(demo.roles);
        expect(await verifyPassword(demo.password, person?.passwordHash)).toBe(true);
        expect(printed.join("\n")).toContain(`${demo.email}`);
        expect(printed.join("\n")).toContain(demo.password);
      }
    } finally {
      await closeDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("does not create them again on the next start", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-demo-"));
    try {
      vi.stubEnv("DATABASE_URL", "");
      vi.stubEnv("PARLEY_DATA_DIR", dataDir);
      await prepareServer(() => {});
      await closeDatabase();
      const printed: string[] = [];
      await prepareServer((line) => printed.push(line));
      expect(await listUsers((await getDatabase()).db)).toHaveLength(DEMO_USERS.length);
      expect(printed.join("\n")).not.toMatch(/created/i);
    } finally {
      await closeDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(TEST_POSTGRES_URL)("starting Parley on a DATABASE_URL database", () => {
  it("creates nobody and prints no passwords", async () => {
    const { url, drop } = await createPostgresDatabase();
    try {
      vi.stubEnv("DATABASE_URL", url);
      const printed: string[] = [];
      await prepareServer((line) => printed.push(line));
      expect(await listUsers((await getDatabase()).db)).toEqual([]);
      for (const demo of DEMO_USERS) expect(printed.join("\n")).not.toContain(demo.password);
    } finally {
      await closeDatabase();
      await drop();
    }
  });
});
