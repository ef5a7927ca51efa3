import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../../..");

export interface OwnServer {
  child: ChildProcess;
  /** What it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * A Parley of a spec's own, on the build the suite made, in demo mode on an embedded database of its
 * own, for what the suite's server is not configured for. `command` is the script to run (default:
 * `next start` on loopback); `env` is added to the suite's. Resolves once `/login` answers.
 */
export async function startOwnServer(options: {
  name: string;
  port: number;
  env?: Record<string, string>;
  command?: string[];
}): Promise<OwnServer> {
  const dataDir = path.join(ROOT, ".test-data", `e2e-${options.name}-${options.port}`);
  rmSync(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(options.port), DATABASE_URL: "", PARLEY_DATA_DIR: dataDir, ...options.env };
  delete env.AUTH_SECRET;
  delete env.HOSTNAME;
  // Playwright's own loader, which the server has no use for.
  delete env.NODE_OPTIONS;
  const command = options.command ?? [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(options.port), "-H", "127.0.0.1"];
  const child = spawn(process.execPath, command, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${options.port}/login`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`the ${options.name} server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, output: () => output, stop };
}
