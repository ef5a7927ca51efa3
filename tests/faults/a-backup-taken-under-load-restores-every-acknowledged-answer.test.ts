import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_USERS } from "@/lib/demo-people";
import { callAction, HttpClient, serverActionIds } from "./support/http-client";
import { ROOT } from "./support/prerequisites";
import { type ServerProcess, startServer } from "./support/server";

const PORT = 3164;
const RESTORED_PORT = 3165;
/** Clients asking and answering at once while the backup is taken. */
const CLIENTS = 4;

const run = promisify(execFile);

/** `parley <args>` as a person runs it, on the embedded database in `folder`. */
function parley(args: string[], folder: string): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [path.join(ROOT, "bin", "parley.mjs"), ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: "", PARLEY_DATA_DIR: folder }, timeout: 120_000 });
}

/** The server on the embedded database in `folder` (demo mode: the demo people and key). */
function serverOn(folder: string, port: number, authSecret: string): Promise<ServerProcess> {
  return startServer({ port, databaseUrl: "", authSecret, env: { PARLEY_DATA_DIR: folder }, readyTimeoutMs: 180_000 });
}

describe("a backup of the embedded database taken while the server is busy", () => {
  const folders: string[] = [];
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.kill9();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("holds every answer acknowledged before it began, and a server restored from it serves them", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "parley-busy-"));
    const restoredFolder = mkdtempSync(path.join(tmpdir(), "parley-restored-"));
    const file = path.join(mkdtempSync(path.join(tmpdir(), "parley-backups-")), "busy.tar.gz");
    folders.push(folder, restoredFolder, path.dirname(file));
    const authSecret = randomBytes(33).toString("base64");
    const server = await serverOn(folder, PORT, authSecret);
    servers.push(server);
    const agentKey = /Demo API key: (pk_\S+)/.exec(server.output())?.[1];
    expect(agentKey).toBeDefined();
    const sam = new HttpClient(server.baseUrl);
    await sam.signIn("sam@parley.test", DEMO_USERS.find((person) => person.email === "sam@parley.test")!.password);
    const made = await callAction(sam, { actionId: serverActionIds().get("app/(app)/profile/actions.ts#createPersonalTokenAction")!, args: [{ json: null }, { form: { name: "Backup test laptop" } }] });
    const samToken = (made.result as { data?: { secret?: string } }).data?.secret;
    expect(samToken).toMatch(/^pt_/);

    // Each client asks Sam a question over the API and he answers it, again and again; an answer is
    // acknowledged when its 200 has arrived.
    const acknowledged: { askId: string; answer: string; at: number }[] = [];
    const failures: string[] = [];
    let stopping = false;
    const client = async (index: number) => {
      for (let round = 0; !stopping; round++) {
        const answer = `Yes, ${index}.${round}`;
        const asked = await fetch(`${server.baseUrl}/api/v1/asks`, {
          method: "POST",
          headers: { authorization: `Bearer ${agentKey}`, "content-type": "application/json" },
          body: JSON.stringify({ to: "sam@parley.test", title: `Ship build ${index}.${round}?` }),
        });
        if (asked.status !== 201) {
          failures.push(`ask: ${asked.status} ${await asked.text()}`);
          continue;
        }
        const ask = (await asked.json()) as { id: string; url: string };
        const answered = await fetch(`${server.baseUrl}/api/v1/questions/${ask.url.split("/").at(-1)}/answer`, {
          method: "POST",
          headers: { authorization: `Bearer ${samToken}`, "content-type": "application/json" },
          body: JSON.stringify({ answers: { answer } }),
        });
        if (answered.status === 200) acknowledged.push({ askId: ask.id, answer, at: performance.now() });
        else failures.push(`answer: ${answered.status} ${await answered.text()}`);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));

    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const backupBegan = performance.now();
    const backup = await parley(["backup", "--out", file], folder);
    const backupTook = performance.now() - backupBegan;
    // Answers go on after it, as they did during it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stopping = true;
    await load;

    expect(backup.stdout).toContain("taken by the running server");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(failures).toEqual([]);
    const before = acknowledged.filter((each) => each.at < backupBegan);
    const during = acknowledged.filter((each) => each.at >= backupBegan && each.at <= backupBegan + backupTook);
    expect(before.length).toBeGreaterThan(5);
    console.log(`backup took ${Math.round(backupTook)} ms; ${before.length} answers acknowledged before it, ${during.length} while it was taken, ${acknowledged.length} in all`);

    const restore = await parley(["restore", file], restoredFolder);
    expect(restore.stdout).toContain("Restored");
    const restored = await serverOn(restoredFolder, RESTORED_PORT, authSecret);
    servers.push(restored);
    const missing: string[] = [];
    for (const { askId, answer } of before) {
      const read = await fetch(`${restored.baseUrl}/api/v1/asks/${askId}`, { headers: { authorization: `Bearer ${agentKey}` } });
      const body = (await read.json()) as { status?: string; answer?: unknown };
      if (read.status !== 200 || body.status !== "answered" || JSON.stringify(body.answer) !== JSON.stringify(answer)) missing.push(`${askId}: ${read.status} ${JSON.stringify(body)}`);
    }
    expect(missing).toEqual([]);
  });
});
