import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SERVER_ARGUMENTS } from "../../../scripts/build-if-needed.mjs";
import { FAULT_BUILD_DIR, ROOT } from "./prerequisites";

const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

/** Settings of the surrounding shell a test server must not inherit: each test says what it runs on. */
const INHERITED_SETTINGS = /^(PARLEY_|AUTH_|DATABASE_URL$|OPENAI_API_KEY$|ANTHROPIC_API_KEY$|PORT$)/;

/** What a test server is started with. */
export interface ServerOptions {
  /** 3150–3169 on the shared machines. */
  port: number;
  databaseUrl: string;
  authSecret: string;
  /** More environment (a model endpoint, a short job lease…). */
  env?: Record<string, string>;
  /** How long to wait for the first page; a loaded 2-core machine is slow to start. */
  readyTimeoutMs?: number;
}

/** A production Parley server in a process of its own. */
export interface ServerProcess {
  readonly baseUrl: string;
  readonly pid: number;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Everything it printed so far (the last megabyte). */
  output(): string;
  /** SIGKILL: no shutdown hook, no flush, no goodbye. Resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM, then SIGKILL if it lingers. */
  stop(): Promise<void>;
  /** How it ended (its exit code, or the signal that ended it), once it has. */
  ended(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const OUTPUT_LIMIT = 1 << 20;

/** Where every test server's output is kept, one file per port, for a failure's post-mortem. */
export const SERVER_LOG_DIR = path.join(ROOT, ".test-data", "faults");

/** Ports whose log this test process has started afresh (a run's log holds that run's servers only). */
const loggedPorts = new Set<number>();

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Starts `next start` on the fault suite's build (the process itself, not a wrapper, so its pid is
 * the server's), without waiting for it: {@link ServerProcess.ready} does that.
 */
export function spawnServer(options: ServerOptions): ServerProcess & { ready(): Promise<void> } {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!INHERITED_SETTINGS.test(key)) env[key] = value;
  Object.assign(env, {
    NEXT_TELEMETRY_DISABLED: "1",
    PARLEY_BUILD_DIR: FAULT_BUILD_DIR,
    DATABASE_URL: options.databaseUrl,
    AUTH_SECRET: options.authSecret,
    PORT: String(options.port),
    ...options.env,
  });
  const child = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(options.port), "-H", "127.0.0.1", ...SERVER_ARGUMENTS], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  mkdirSync(SERVER_LOG_DIR, { recursive: true });
  const logFile = path.join(SERVER_LOG_DIR, `server-${options.port}.log`);
  const header = `=== ${new Date().toISOString()} next start (pid ${child.pid})\n`;
  if (loggedPorts.has(options.port)) appendFileSync(logFile, header);
  else writeFileSync(logFile, header);
  loggedPorts.add(options.port);
  const collect = (chunk: Buffer) => {
    appendFileSync(logFile, chunk);
    output += chunk.toString();
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT / 2);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const gone = exited(child);
  let dead = false;
  void gone.then(() => (dead = true));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const server = {
    baseUrl,
    pid: child.pid!,
    alive: () => !dead,
    output: () => output,
    async kill9() {
      child.kill("SIGKILL");
      await gone;
    },
    async ended() {
      await gone;
      return { code: child.exitCode, signal: child.signalCode };
    },
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await gone;
      clearTimeout(timer);
    },
    async ready() {
      const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
      for (;;) {
        if (dead) throw new Error(`the server on port ${options.port} exited before it was ready:\n${output}`);
        try {
          const response = await fetch(`${baseUrl}/login`, { signal: AbortSignal.timeout(5_000) });
          await response.arrayBuffer();
          if (response.status === 200) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) {
          await server.kill9();
          throw new Error(`the server on port ${options.port} was not ready in time:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return server;
}

/** {@link spawnServer}, and wait until it serves the sign-in page. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const server = spawnServer(options);
  await server.ready();
  return server;
}
