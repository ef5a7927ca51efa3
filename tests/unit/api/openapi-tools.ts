import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { openApiDocument } from "@/lib/asks/openapi";

/** The repository's root, where the tools the tests run are installed. */
export const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");

const run = promisify(execFile);

/** What a command printed, and its exit code (0 unless it failed). */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one of node_modules/.bin's tools (or a script under node_modules) in `cwd`, offline; a non-zero exit is returned, not thrown. */
export async function runTool(script: string, args: readonly string[], cwd: string): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, "node_modules", script), ...args], {
      cwd,
      maxBuffer: 32 * 1024 * 1024,
      timeout: 45_000,
      // No telemetry, no update checks: the tests run offline.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? failed.message };
  }
}

/** A temporary folder holding the API's OpenAPI document as `openapi.json`, removed by `remove`. */
export async function documentInTemporaryFolder(document: unknown = openApiDocument("https://parley.example.org")): Promise<{ folder: string; file: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), "parley-openapi-"));
  const file = path.join(folder, "openapi.json");
  await writeFile(file, JSON.stringify(document, null, 2));
  return { folder, file, remove: () => rm(folder, { recursive: true, force: true }) };
}
