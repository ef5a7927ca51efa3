import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { nextBin, root, serverNodeOptions } from "../../scripts/build-if-needed.mjs";

const timer = pathToFileURL(path.join(import.meta.dirname, "inbox-request-timer.mjs")).href;

/** The production build the benchmark serves: a folder of its own, so other builds are left alone. */
export const INBOX_BUILD_DIR = ".next-inbox";

/** `next build` into {@link INBOX_BUILD_DIR}, unless that build is newer than every source file. */
export function buildIfNeeded(): void {
  const build = spawnSync(process.execPath, ["--input-type=module", "-e", "(await import('./scripts/build-if-needed.mjs')).buildIfNeeded()"], {
    cwd: root,
    env: { ...process.env, PARLEY_BUILD_DIR: INBOX_BUILD_DIR, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error(`the build failed (exit ${build.status})`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** A running `next start` whose requests are timed from inside (see inbox-request-timer.mjs). */
export interface BenchServer {
  baseUrl: string;
  /** Server-side time of each marked request, by its `x-bench-request` id. */
  serverTimes: Map<string, { serverMs: number; cpuMs: number; status: number }>;
  /** What the server printed, for when something goes wrong. */
  output(): string;
  /** The server's resident memory now, in bytes: the `next start` process and any process it started (VmRSS from /proc). */
  rss(): number;
  /** How many processes the server is (the `next start` process and those it started). */
  processes(): number;
  /** Memory samples taken every `intervalMs` until stopped: [epoch ms, bytes]. */
  sampleRss(intervalMs?: number): { samples: [number, number][]; stop(): void };
  stop(): Promise<void>;
}

/** VmRSS of a process, in bytes (0 when it is gone). */
function rssOfProcess(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The processes `pid` started, and theirs (from /proc/<pid>/task/<tid>/children). */
function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const visit = (parent: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      return;
    }
    for (const task of tasks) {
      let children = "";
      try {
        children = readFileSync(`/proc/${parent}/task/${task}/children`, "utf8");
      } catch {
        continue;
      }
      for (const child of children.split(/\s+/).filter(Boolean).map(Number)) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

/** Starts the production build on a free loopback port against `databaseUrl` and waits until it answers. */
export async function startServer(databaseUrl: string): Promise<BenchServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  // Idle keep-alive connections are kept a minute (Node's default is 5 s): a slow page on one
  // connection must not leave the others to be closed under the load tool as it reuses them.
  const child: ChildProcess = spawn(process.execPath, ["--import", timer, nextBin, "start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", "60000"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PARLEY_BUILD_DIR: INBOX_BUILD_DIR,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: randomBytes(33).toString("base64"),
      PORT: String(port),
      // As `npm start` runs it.
      NODE_OPTIONS: serverNodeOptions({ ...process.env, NODE_OPTIONS: "" }),
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const serverTimes = new Map<string, { serverMs: number; cpuMs: number; status: number }>();
  child.on("message", (message) => {
    const timed = message as { benchRequest?: string; serverMs: number; cpuMs: number; status: number };
    if (timed.benchRequest) serverTimes.set(timed.benchRequest, { serverMs: timed.serverMs, cpuMs: timed.cpuMs, status: timed.status });
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/login`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`next start did not answer within two minutes:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const rss = () => (child.pid ? [child.pid, ...descendantsOf(child.pid)].reduce((sum, pid) => sum + rssOfProcess(pid), 0) : 0);
  return {
    baseUrl,
    serverTimes,
    output: () => output,
    rss,
    processes: () => (child.pid ? 1 + descendantsOf(child.pid).length : 0),
    sampleRss(intervalMs = 100) {
      const samples: [number, number][] = [[Date.now(), rss()]];
      const timer = setInterval(() => samples.push([Date.now(), rss()]), intervalMs);
      return {
        samples,
        stop() {
          clearInterval(timer);
          samples.push([Date.now(), rss()]);
        },
      };
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      // next start finishes open requests first; it does not get forever.
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
}

/** Signs in through next-auth's credentials endpoint, as the sign-in form does; returns the session cookie. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(csrf).join("; ") },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${baseUrl}/inbox` }),
  });
  await response.arrayBuffer();
  const session = cookiesOf(response).find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`signing in as ${email} gave no session (${response.status} ${response.headers.get("location") ?? ""})`);
  return session;
}
