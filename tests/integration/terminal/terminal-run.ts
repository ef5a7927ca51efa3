import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const PARLEY = path.join(ROOT, "bin", "parley.mjs");

/** The environment of a child `parley`: no CI (the test runner's CI would make it non-interactive), no server database. */
function childEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", TERM: "dumb" };
  delete env.CI;
  delete env.DATABASE_URL;
  return { ...env, ...extra };
}

/** Runs `parley` with pipes (nobody at a terminal), from `cwd` (default the project root); resolves with its exit code and output. */
export function runWithPipes(args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [PARLEY, ...args], { cwd: options.cwd ?? ROOT, env: childEnvironment(options.env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** Strips terminal control sequences, so a screen reads as text. */
export function plain(screen: string): string {
  return screen.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-B]|\r/g, "");
}

/**
 * `parley` in a real pseudo-terminal (Debian's `script`), typed at like a person: each answer is
 * typed once its prompt is on the screen.
 */
export class PtySession {
  private readonly child: ChildProcessWithoutNullStreams;
  private output = "";
  private readonly closed: Promise<number | null>;

  constructor(args: string[], options: { env?: Record<string, string> } = {}) {
    const command = [process.execPath, PARLEY, ...args].map((part) => `'${part.replace(/'/g, "'\\''")}'`).join(" ");
    // A pty made by `script` with no terminal above it has no size; give it one, or every prompt wraps at one column.
    this.child = spawn("script", ["-qfec", `stty cols 200 rows 50; ${command}`, "/dev/null"], { cwd: ROOT, env: childEnvironment(options.env) });
    this.child.stdout.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.closed = new Promise((resolve) => this.child.on("close", resolve));
  }

  /** Everything the terminal showed so far, as text. */
  get screen(): string {
    return plain(this.output);
  }

  /** Waits until `text` is on the screen (after `from`, when given). */
  async waitFor(text: string, from = "", timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const shown = () => {
      const start = from ? this.screen.indexOf(from) : 0;
      return start >= 0 && this.screen.slice(start).includes(text);
    };
    while (!shown()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(text)}; the screen shows:\n${this.screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Types a line and presses Enter. */
  type(line: string): void {
    this.child.stdin.write(`${line}\r`);
  }

  /** Presses a key without Enter: "\u0003" is Ctrl-C. */
  press(key: string): void {
    this.child.stdin.write(key);
  }

  /** Resolves with the exit code once the command ends. */
  exited(): Promise<number | null> {
    return this.closed;
  }
}

/** The expense review's start form, answered in a file for `parley start ReviewClaim --input`: a claim the scripted Auditor approves at once. */
export const TAXI_CLAIM = {
  title: "Taxi to the client",
  merchant: "Lisbon Taxis",
  amount: "34.00",
  currency: "EUR",
  incurredOn: "2026-11-04",
  // The first person offered: on a database of its own, the one at the terminal.
  assigneeId: "1",
  description: "Taxi from the airport to the Acme office for the renewal meeting.",
};
