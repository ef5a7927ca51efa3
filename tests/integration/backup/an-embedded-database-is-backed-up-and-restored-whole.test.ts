import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dumpEmbedded } from "@/db/backup";
import { type Database, openDatabase } from "@/db/client";
import { insertUsersIfAbsent, listUsers } from "@/db/queries/users";
import { requestBackup, serveBackups } from "@/lib/backup-socket";
import { migrateParley } from "@/lib/database";
import { backupCommand, restoreCommand } from "@/lib/terminal/backup-commands";

/** What a command wrote, and its exit code. */
interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(command: (context: Parameters<typeof backupCommand>[0]) => Promise<number>, env: Record<string, string>, from: string): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (chunk: string) => (stdout += chunk) }, stderr: { write: (chunk: string) => (stderr += chunk) } };
  const code = await command({ io, env, from, now: new Date("2026-12-06T12:00:00.000Z") });
  return { code, stdout, stderr };
}

/** A migrated, empty data folder, made once: each test copies it (making and migrating one takes PGlite a while). */
let template: string;

/** A migrated embedded database in a data folder of its own, with `names` in it. */
async function folderWith(names: string[]): Promise<{ folder: string; database: Database }> {
  const folder = mkdtempSync(path.join(tmpdir(), "parley-backup-"));
  cpSync(template, folder, { recursive: true });
  const database = await openDatabase({ kind: "pglite", dataDir: path.join(folder, "pglite"), folder });
  await insertUsersIfAbsent(
    database.db,
    names.map((name, index) => ({ name, email: `person-${index}@parley.test`, roles: ["assignee"] })),
  );
  return { folder, database };
}

beforeAll(async () => {
  template = mkdtempSync(path.join(tmpdir(), "parley-backup-template-"));
  const database = await openDatabase({ kind: "pglite", dataDir: path.join(template, "pglite"), folder: template });
  await migrateParley(database);
  await database.close();
}, 180_000);

afterAll(() => rmSync(template, { recursive: true, force: true }));

describe("backing up and restoring the embedded database", () => {
  const made: string[] = [];
  const open: Database[] = [];
  afterEach(async () => {
    for (const database of open.splice(0)) await database.close();
    for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("restores into a new folder everything a backup taken from a stopped server's folder holds", async () => {
    const { folder, database } = await folderWith(["Ada", "Bo"]);
    await database.close();
    const restored = mkdtempSync(path.join(tmpdir(), "parley-restored-"));
    made.push(folder, restored);

    const backup = await run((context) => backupCommand(context, { out: "copy.tar.gz" }), { PARLEY_DATA_DIR: folder }, restored);
    expect(backup).toMatchObject({ code: 0, stderr: "" });
    expect(backup.stdout).toContain(`to ${path.join(restored, "copy.tar.gz")}`);
    const into = path.join(restored, "data");
    const restore = await run((context) => restoreCommand(context, "copy.tar.gz"), { PARLEY_DATA_DIR: into }, restored);
    expect(restore).toMatchObject({ code: 0, stderr: "" });

    const reopened = await openDatabase({ kind: "pglite", dataDir: path.join(into, "pglite"), folder: into });
    open.push(reopened);
    expect((await listUsers(reopened.db)).map((person) => person.name)).toEqual(["Ada", "Bo"]);
  });

  it("gets a backup from the server running on the folder, over its socket, while the server goes on", async () => {
    const { folder, database } = await folderWith(["Cy"]);
    made.push(folder);
    open.push(database);
    const serving = await serveBackups(folder, () => dumpEmbedded(database.pglite!), (error) => {
      throw error;
    });
    try {
      const backup = await requestBackup(folder);
      await insertUsersIfAbsent(database.db, [{ name: "Dee", email: "dee@parley.test", roles: ["assignee"] }]);
      const into = mkdtempSync(path.join(tmpdir(), "parley-restored-"));
      made.push(into);
      writeFileSync(path.join(into, "backup.tar.gz"), backup);
      expect((await run((context) => restoreCommand(context, "backup.tar.gz"), { PARLEY_DATA_DIR: path.join(into, "data") }, into)).code).toBe(0);
      const reopened = await openDatabase({ kind: "pglite", dataDir: path.join(into, "data", "pglite"), folder: path.join(into, "data") });
      open.push(reopened);
      // As it was when the backup was taken: Dee came after.
      expect((await listUsers(reopened.db)).map((person) => person.name)).toEqual(["Cy"]);
    } finally {
      await serving!.close();
    }
  });

  it("refuses to restore over a database, and leaves it as it was", async () => {
    const { folder, database } = await folderWith(["Eve"]);
    await database.close();
    made.push(folder);
    const elsewhere = await folderWith(["Fay"]);
    await elsewhere.database.close();
    made.push(elsewhere.folder);
    expect((await run((context) => backupCommand(context, { out: "fay.tar.gz" }), { PARLEY_DATA_DIR: elsewhere.folder }, elsewhere.folder)).code).toBe(0);

    const restore = await run((context) => restoreCommand(context, "fay.tar.gz"), { PARLEY_DATA_DIR: folder }, elsewhere.folder);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toContain("already holds a database: move it aside");
    const reopened = await openDatabase({ kind: "pglite", dataDir: path.join(folder, "pglite"), folder });
    open.push(reopened);
    expect((await listUsers(reopened.db)).map((person) => person.name)).toEqual(["Eve"]);
  });

  it("refuses a file that is not a backup, and leaves no half-made database behind", async () => {
    const into = mkdtempSync(path.join(tmpdir(), "parley-restored-"));
    made.push(into);
    writeFileSync(path.join(into, "notes.txt"), "not a backup");
    const restore = await run((context) => restoreCommand(context, "notes.txt"), { PARLEY_DATA_DIR: path.join(into, "data") }, into);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toContain("this is not a backup Parley can restore");
    // Nothing is left that the next restore, of a real backup, would be refused for.
    expect(existsSync(path.join(into, "data", "pglite"))).toBe(false);
  });

  it("sends PostgreSQL's users to pg_dump and pg_restore instead", async () => {
    const from = tmpdir();
    const env = { DATABASE_URL: "postgres://parley@127.0.0.1:1/parley" };
    const backup = await run((context) => backupCommand(context, {}), env, from);
    expect(backup.code).toBe(2);
    expect(backup.stderr).toContain("pg_dump");
    const restore = await run((context) => restoreCommand(context, "x.tar.gz"), env, from);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toContain("pg_restore");
  });
});
