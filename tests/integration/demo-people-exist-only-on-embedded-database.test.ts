import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeDatabase, getDatabase } from "@/lib/database";
import { findUserByEmail, listUsers } from "@/db/queries/users";
import { getAppRuntime, stopAppRuntime } from "@/lib/app-runtime";
import { verifyPassword } from "@/lib/auth/password";
import { DEMO_USERS } from "@/lib/demo-people";
import { prepareServer } from "@/lib/startup";
import { createPostgresDatabase, TEST_POSTGRES_URL } from "../support/databases";

afterEach(async () => {
  await stopAppRuntime();
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
      await stopAppRuntime();
      await closeDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("starts reviews of the demo claims, whose questions then wait on the demo assignees", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-demo-"));
    try {
      vi.stubEnv("DATABASE_URL", "");
      vi.stubEnv("PARLEY_DATA_DIR", dataDir);
      await prepareServer(() => {});
      const { runtime } = await getAppRuntime();
      await runtime.drain();
      const { db } = await getDatabase();
      const sam = await findUserByEmail(db, "sam@parley.test");
      const waitingOnSam = await runtime.answerableSlots(sam!.id);
      expect(waitingOnSam.filter((slot) => slot.assigneeId === sam!.id)).toHaveLength(2);
    } finally {
      await stopAppRuntime();
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
      await stopAppRuntime();
      await closeDatabase();
      const printed: string[] = [];
      await prepareServer((line) => printed.push(line));
      expect(await listUsers((await getDatabase()).db)).toHaveLength(DEMO_USERS.length);
      expect(printed.join("\n")).not.toMatch(/created/i);
    } finally {
      await stopAppRuntime();
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
      // A real server's start needs its own secret of 32 characters or more.
      vi.stubEnv("AUTH_SECRET", randomBytes(33).toString("base64"));
      const printed: string[] = [];
      await prepareServer((line) => printed.push(line));
      expect(await listUsers((await getDatabase()).db)).toEqual([]);
      for (const demo of DEMO_USERS) expect(printed.join("\n")).not.toContain(demo.password);
    } finally {
      await stopAppRuntime();
      await closeDatabase();
      await drop();
    }
  });
});
