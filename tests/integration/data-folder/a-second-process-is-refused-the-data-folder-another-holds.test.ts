import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, targetFromEnvironment } from "@/db/client";
import { DataFolderLockedError, lockDataFolder, lockFileFor, processStartTime } from "@/db/data-folder-lock";

const TSX = path.join("node_modules", "tsx", "dist", "cli.mjs");

describe("the embedded database's data folder has one process at a time", () => {
  let folder: string;
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("refuses the migrate and seed scripts while another process holds the folder, naming the folder and the holder", () => {
    folder = mkdtempSync(path.join(tmpdir(), "parley-lock-"));
    const target = targetFromEnvironment({ PARLEY_DATA_DIR: folder });
    const lock = lockDataFolder(target.kind === "pglite" ? target.dataDir! : "");
    try {
      for (const script of ["scripts/migrate.ts", "scripts/seed-demo.ts"]) {
        const run = spawnSync(process.execPath, [TSX, script], { env: { ...process.env, DATABASE_URL: "", PARLEY_DATA_DIR: folder }, encoding: "utf8" });
        expect(run.status).not.toBe(0);
        expect(run.stderr).toContain(`the data folder ${path.join(folder, "pglite")} is in use by process ${process.pid}`);
        expect(run.stdout).not.toContain("applied");
      }
    } finally {
      lock.release();
    }
    expect(existsSync(lockFileFor(path.join(folder, "pglite")))).toBe(false);
  });

  it("refuses a second opener in the same process too, and lets it in once the first has closed", async () => {
    folder = mkdtempSync(path.join(tmpdir(), "parley-lock-"));
    const target = targetFromEnvironment({ PARLEY_DATA_DIR: folder });
    const first = await openDatabase(target);
    await expect(openDatabase(target)).rejects.toBeInstanceOf(DataFolderLockedError);
    await first.close();
    const second = await openDatabase(target);
    await second.close();
  });

  it("takes over a lock left by a holder killed with SIGKILL", async () => {
    folder = mkdtempSync(path.join(tmpdir(), "parley-lock-"));
    const dataDir = path.join(folder, "pglite");
    const holder = spawn(process.execPath, ["--import", "tsx", "-e", `import("./db/data-folder-lock.ts").then(({ lockDataFolder }) => { lockDataFolder(${JSON.stringify(dataDir)}); console.log("locked"); setInterval(() => {}, 1000); })`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
      holder.on("exit", () => reject(new Error("the holder exited before taking the lock")));
    });
    expect(() => lockDataFolder(dataDir)).toThrow(`in use by process ${holder.pid}`);
    const exited = new Promise((resolve) => holder.on("exit", resolve));
    holder.kill("SIGKILL");
    await exited;
    expect(existsSync(lockFileFor(dataDir))).toBe(true);

    const lock = lockDataFolder(dataDir);
    lock.release();
  });

  it("takes over a lock whose pid now belongs to another process (the holder died and the pid was reused)", () => {
    folder = mkdtempSync(path.join(tmpdir(), "parley-lock-"));
    const dataDir = path.join(folder, "pglite");
    const started = processStartTime("self");
    expect(started).not.toBeNull();
    // This very process's pid, but a start time it does not have.
    writeFileSync(lockFileFor(dataDir), JSON.stringify({ pid: process.pid, host: hostname(), started: `${Number(started) - 1}`, nonce: "dead" }));
    const lock = lockDataFolder(dataDir);
    lock.release();
  });
});
