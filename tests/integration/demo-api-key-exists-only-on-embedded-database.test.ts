import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findUserByEmail } from "@/db/queries/users";
import { stopAppRuntime } from "@/lib/app-runtime";
import { authenticateApiKey, listKeys, revokeKey } from "@/lib/api-keys";
import { closeDatabase, getDatabase } from "@/lib/database";
import { prepareServer } from "@/lib/startup";
import { createPostgresDatabase, TEST_POSTGRES_URL } from "../support/databases";

/** The secret on the console's `Demo API key: …` line; it must be a line of its own. */
function printedDemoKey(printed: string[]): string | undefined {
  const lines = printed.join("\n").split("\n").filter((line) => line.startsWith("Demo API key: "));
  expect(lines.length).toBeLessThanOrEqual(1);
  return lines[0] ? /^Demo API key: (\S+)$/.exec(lines[0])?.[1] : undefined;
}

async function stop() {
  await stopAppRuntime();
  await closeDatabase();
}

afterEach(async () => {
  await stop();
  vi.unstubAllEnvs();
});

describe("starting Parley on the embedded database", () => {
  it("makes a demo agent key by the demo admin and prints it after the sign-ins, where it works", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-demo-key-"));
    try {
      vi.stubEnv("DATABASE_URL", "");
      vi.stubEnv("PARLEY_DATA_DIR", dataDir);
      const printed: string[] = [];
      await prepareServer((line) => printed.push(line));

      const secret = printedDemoKey(printed);
      expect(secret).toMatch(/^pk_/);
      const output = printed.join("\n");
      expect(output.indexOf("Demo API key: ")).toBeGreaterThan(output.indexOf("Demo sign-ins"));
      const { db } = await getDatabase();
      const key = await authenticateApiKey(db, secret!);
      const ada = await findUserByEmail(db, "ada@parley.test");
      expect(key).toMatchObject({ kind: "agent", name: "Demo agent", createdBy: ada!.id, demoSecret: secret });
    } finally {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("prints the same key on the next start, and makes a new one only when it was revoked", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-demo-key-"));
    try {
      vi.stubEnv("DATABASE_URL", "");
      vi.stubEnv("PARLEY_DATA_DIR", dataDir);
      const first: string[] = [];
      await prepareServer((line) => first.push(line));
      await stop();
      const second: string[] = [];
      await prepareServer((line) => second.push(line));
      expect(printedDemoKey(second)).toBe(printedDemoKey(first));
      expect(await listKeys((await getDatabase()).db, "agent")).toHaveLength(1);

      const [demo] = await listKeys((await getDatabase()).db, "agent");
      await revokeKey((await getDatabase()).db, { id: demo!.id, kind: "agent", by: null });
      await stop();
      const third: string[] = [];
      await prepareServer((line) => third.push(line));
      const renewed = printedDemoKey(third);
      expect(renewed).toMatch(/^pk_/);
      expect(renewed).not.toBe(printedDemoKey(first));
      const { db } = await getDatabase();
      expect(await authenticateApiKey(db, printedDemoKey(first)!)).toBeUndefined();
      expect(await authenticateApiKey(db, renewed!)).toBeDefined();
    } finally {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(TEST_POSTGRES_URL)("starting Parley on a DATABASE_URL database", () => {
  it("makes no key and prints none", async () => {
    const { url, drop } = await createPostgresDatabase();
    try {
      vi.stubEnv("DATABASE_URL", url);
      // A real server's start needs its own secret of 32 characters or more.
      vi.stubEnv("AUTH_SECRET", randomBytes(33).toString("base64"));
      const printed: string[] = [];
      await prepareServer((line) => printed.push(line));
      expect(printed.join("\n")).not.toContain("Demo API key");
      expect(await listKeys((await getDatabase()).db, "agent")).toEqual([]);
    } finally {
      await stop();
      await drop();
    }
  });
});
