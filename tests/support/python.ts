import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

/** The standard-library Python example (examples/python/ask.py). */
export const PYTHON_EXAMPLE = path.resolve(import.meta.dirname, "..", "..", "examples", "python", "ask.py");

/** The Python package (packages/python): its source is `src/`, its unittest suite `tests/`. */
export const PYTHON_PACKAGE = path.resolve(import.meta.dirname, "..", "..", "packages", "python");

/** `python3` if it is there and 3.9 or later; otherwise why the tests that run it are skipped. */
export function findPython(): { python: string; skip?: undefined } | { python?: undefined; skip: string } {
  const probe = spawnSync("python3", ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return { skip: "python3 is not installed here: the Python example cannot be run" };
  const [major, minor] = probe.stdout.trim().split(".").map(Number);
  if (major! < 3 || (major === 3 && minor! < 9)) return { skip: `python3 is ${probe.stdout.trim()}; the Python example needs 3.9 or later` };
  return { python: "python3" };
}

/** How a run of the example ended. */
export interface PythonRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the example with `args` against Parley at `url` with `apiKey` (asynchronously: the server may be in this process). */
export function runPythonExample(args: readonly string[], env: { url: string; apiKey: string }, timeoutMs = 60_000): Promise<PythonRun> {
  return runProcess("python3", [PYTHON_EXAMPLE, ...args], { env: { PARLEY_URL: env.url, PARLEY_API_KEY: env.apiKey }, timeoutMs });
}

/**
 * How to run mypy here — `mypy`, or the module in `python3` or in Debian's own Python (apt's
 * python3-mypy installs it there, beside a pyenv `python3`) — or why the type check is skipped.
 */
export function findMypy(): { command: string[]; skip?: undefined } | { command?: undefined; skip: string } {
  for (const command of [["mypy"], ["python3", "-m", "mypy"], ["/usr/bin/python3", "-m", "mypy"]]) {
    const probe = spawnSync(command[0]!, [...command.slice(1), "--version"], { encoding: "utf8" });
    if (!probe.error && probe.status === 0) return { command };
  }
  return { skip: "mypy is not installed here (apt-get install python3-mypy): the package's types are not checked" };
}

/** Runs `command` with `args` in `cwd` with a small environment of its own plus `env`, asynchronously, and collects its output. */
export function runProcess(command: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<PythonRun> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    // No proxy settings for servers on loopback; unbuffered, so output arrives as written; no __pycache__ left in the tree.
    const childEnv: Record<string, string> = { PATH: process.env.PATH ?? "", PYTHONUNBUFFERED: "1", PYTHONDONTWRITEBYTECODE: "1", ...options.env };
    if (process.env.HOME) childEnv.HOME = process.env.HOME;
    const child = spawn(command, args, { cwd: options.cwd, env: childEnv as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not finish within ${timeoutMs} ms; stderr so far:\n${stderr}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
