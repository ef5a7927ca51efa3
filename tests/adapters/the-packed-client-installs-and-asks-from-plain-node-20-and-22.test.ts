import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installTestTools, NODE_22 } from "../support/node-22";
import { startTestParley, type TestParley } from "./support/parley";

/*
 * The client as an integrator gets it: `npm pack` of packages/client, installed from the tarball into
 * a folder outside the repository (with zod from the registry), used by plain Node — ESM and
 * CommonJS, on Node 20 and 22 — against a real Parley, and compiled by tsc with nodenext resolution.
 */

const run = promisify(execFile);
const PACKAGE = path.resolve(import.meta.dirname, "..", "..", "packages", "client");
const TYPESCRIPT = path.resolve(import.meta.dirname, "..", "..", "node_modules", "typescript", "bin", "tsc");
const PORT = 3444;

const ESM_PROGRAM = `
import { z } from "zod";
import { createParleyClient } from "@parleyhq/client";
const parley = createParleyClient({ baseUrl: process.env.PARLEY_URL, apiKey: process.env.PARLEY_API_KEY, pollSeconds: 5 });
const answer = await parley.ask({
  to: "sam@parley.test",
  title: process.env.TITLE,
  schema: z.object({ decision: z.enum(["approve", "reject"]).describe("Deploy now?"), hours: z.coerce.number().int().describe("How long may it take?") }),
});
console.log(JSON.stringify({ node: process.version, answer: answer.ok ? answer.value : answer.reason }));
`;

const CJS_PROGRAM = `
const { createParleyClient } = require("@parleyhq/client");
const { verifyWebhook } = require("@parleyhq/client/webhooks");
const parley = createParleyClient({ baseUrl: process.env.PARLEY_URL, apiKey: process.env.PARLEY_API_KEY, pollSeconds: 5 });
(async () => {
  const { ask } = await parley.createAsk({ to: "sam@parley.test", title: process.env.TITLE });
  const answer = await parley.waitForAnswer(ask.id);
  console.log(JSON.stringify({ node: process.version, answer: answer.ok ? answer.value : answer.reason, verifies: typeof verifyWebhook }));
})();
`;

const TYPED_ESM = `
import { createParleyClient, type AskResult } from "@parleyhq/client";
import { verifyWebhook, type ParleyEvent } from "@parleyhq/client/webhooks";
import { z } from "zod";
const parley = createParleyClient({ baseUrl: "http://127.0.0.1:3000", apiKey: "pk_x" });
export async function decide(): Promise<"approve" | "reject" | undefined> {
  const answer = await parley.ask({ to: "sam@parley.test", title: "Deploy?", schema: z.object({ decision: z.enum(["approve", "reject"]) }) });
  return answer.ok ? answer.value.decision : undefined;
}
export async function receive(body: string, headers: Headers): Promise<ParleyEvent> {
  return verifyWebhook({ secret: "whsec_", headers, body });
}
export type Free = AskResult<string>;
`;

const TYPED_CJS = `
import { createParleyClient } from "@parleyhq/client";
const parley = createParleyClient({ baseUrl: "http://127.0.0.1:3000", apiKey: "pk_x" });
export async function text(): Promise<string | undefined> {
  const answer = await parley.ask({ to: "sam@parley.test", title: "Release note?" });
  return answer.ok ? answer.value : undefined;
}
`;

describe("the packed @parleyhq/client outside the repository", () => {
  let folder: string;
  let tarball: string;
  let parley: TestParley | undefined;

  beforeAll(async () => {
    await installTestTools();
    folder = mkdtempSync(path.join(tmpdir(), "parley-client-package-"));
    const packed = path.join(folder, "packed");
    mkdirSync(packed);
    // `npm pack` runs the package's prepack (its build) first.
    await run("npm", ["pack", "--pack-destination", packed, "--silent"], { cwd: PACKAGE, timeout: 180_000 });
    tarball = path.join(packed, readdirSync(packed).find((name) => name.endsWith(".tgz"))!);
    const consumer = path.join(folder, "app");
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true }));
    await run("npm", ["install", tarball, "zod@4", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: consumer, timeout: 180_000 });
    writeFileSync(path.join(consumer, "ask.mjs"), ESM_PROGRAM);
    writeFileSync(path.join(consumer, "ask.cjs"), CJS_PROGRAM);
    writeFileSync(path.join(consumer, "typed.mts"), TYPED_ESM);
    writeFileSync(path.join(consumer, "typed.cts"), TYPED_CJS);
    parley = await startTestParley(PORT, "package");
  }, 400_000);

  afterAll(async () => {
    await parley?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** Runs `program` with `node` in the consumer folder while Sam answers the question it asks. */
  async function askAndAnswer(node: string, program: string, title: string, answers: (fieldPaths: string[]) => Record<string, string>): Promise<Record<string, unknown>> {
    const child = spawn(node, [program], {
      cwd: path.join(folder, "app"),
      env: { PATH: process.env.PATH ?? "", PARLEY_URL: parley!.baseUrl, PARLEY_API_KEY: parley!.apiKey, TITLE: title } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const exitedEarly = ended.then((code) => {
      throw new Error(`${program} ended (exit ${code}) before Sam was asked:\n${stderr}`);
    });
    const question = await Promise.race([parley!.questionForSam(title), exitedEarly]);
    exitedEarly.catch(() => {});
    const { spec } = await parley!.questionSpec(question.id);
    await parley!.answerAsSam(question.id, answers(spec.fields.map((field) => field.path)));
    expect(await ended, stderr).toBe(0);
    return JSON.parse(stdout.trim()) as Record<string, unknown>;
  }

  it("ships its build, its README and its package.json, and nothing of the app", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.trim().split("\n").sort();
    expect(files).toContain("package/package.json");
    expect(files).toContain("package/README.md");
    expect(files).toContain("package/dist/esm/index.js");
    expect(files).toContain("package/dist/cjs/index.js");
    expect(files).toContain("package/dist/esm/index.d.ts");
    expect(files.filter((file) => !/^package\/(package\.json|README\.md|dist\/(esm|cjs)\/.+)$/.test(file))).toEqual([]);
    expect(files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([]);
    // zod is an optional peer: the declarations compile without it.
    const { stdout: zodMentions } = await run("sh", ["-c", `tar -xzOf '${tarball}' --wildcards 'package/dist/*.d.ts' | grep -c 'from "zod"' || true`]);
    expect(zodMentions.trim()).toBe("0");
  });

  it.each([
    ["Node 20", () => process.execPath],
    ["Node 22", () => NODE_22],
  ])("asks from an ES module on %s and gets the typed answer", async (_, node) => {
    const result = await askAndAnswer(node(), "ask.mjs", `Deploy from ESM on ${_}?`, ([decision, hours]) => ({ [decision!]: "approve", [hours!]: "3" }));
    expect(result).toEqual({ node: expect.stringMatching(_ === "Node 20" ? /^v20\./ : /^v22\./), answer: { decision: "approve", hours: 3 } });
  });

  it.each([
    ["Node 20", () => process.execPath],
    ["Node 22", () => NODE_22],
  ])("asks from CommonJS on %s without zod's help and gets the person's text", async (_, node) => {
    const result = await askAndAnswer(node(), "ask.cjs", `Release note from CommonJS on ${_}?`, ([text]) => ({ [text!]: "Faster exports." }));
    expect(result).toEqual({ node: expect.stringMatching(_ === "Node 20" ? /^v20\./ : /^v22\./), answer: "Faster exports.", verifies: "function" });
  });

  it("type-checks an ES module and a CommonJS module that use it under moduleResolution nodenext", async () => {
    const consumer = path.join(folder, "app");
    const config = {
      compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "ES2022", lib: ["ES2023", "DOM"], strict: true, noEmit: true, types: [] },
      files: ["typed.mts", "typed.cts"],
    };
    writeFileSync(path.join(consumer, "tsconfig.json"), JSON.stringify(config));
    const checked = await run(process.execPath, [TYPESCRIPT, "-p", consumer], { cwd: consumer }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(checked).toBe("");
  });
});
