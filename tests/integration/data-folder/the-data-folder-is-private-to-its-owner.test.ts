import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { openDatabase, targetFromEnvironment } from "@/db/client";

function modes(directory: string): Map<string, number> {
  const found = new Map<string, number>([[directory, statSync(directory).mode & 0o777]]);
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    const entryPath = path.join(entry.parentPath, entry.name);
    found.set(entryPath, statSync(entryPath).mode & 0o777);
  }
  return found;
}

let parent: string;
afterEach(() => rmSync(parent, { recursive: true, force: true }));

it("creates the data folder 0700 and the embedded database's files 0600", async () => {
  parent = mkdtempSync(path.join(tmpdir(), "parley-modes-"));
  const folder = path.join(parent, "data");
  const database = await openDatabase(targetFromEnvironment({ PARLEY_DATA_DIR: folder }));
  try {
    await database.db.execute("create table private_check (id int)");
    for (const [entry, mode] of modes(folder)) {
      const expected = statSync(entry).isDirectory() ? 0o700 : 0o600;
      expect(`${entry} ${mode.toString(8)}`).toBe(`${entry} ${expected.toString(8)}`);
    }
  } finally {
    await database.close();
  }
  const after = modes(folder);
  expect(after.size).toBeGreaterThan(10);
  for (const [entry, mode] of after) expect(`${entry} ${mode.toString(8)}`).toBe(`${entry} ${(statSync(entry).isDirectory() ? 0o700 : 0o600).toString(8)}`);
});
