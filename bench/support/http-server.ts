import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";

import { nextBin, root, SERVER_ARGUMENTS, serverNodeOptions } from "../../scripts/build-if-needed.mjs";

/** Builds Parley into `buildDir` (relative to the project) unless that build is newer than every source. */
export function buildIfNeeded(buildDir: string): void {
  const build = spawnSync(process.execPath, ["--input-type=module", "-e", 'import { buildIfNeeded } from "./scripts/build-if-needed.mjs"; buildIfNeeded();'], {
    cwd: root,
    env: { ...process.env, PARLEY_BUILD_DIR: buildDir, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error(`next build failed (exit ${build.status})`);
}

/** A production server started for the benchmark. */
export interface BenchServer {
  readonly pid: number;
  readonly base: URL;
  /** Stops it (SIGTERM, then SIGKILL after 10 s); a CPU profile, if asked for, is written on the way out. */
  stop(): Promise<void>;
  /** What it printed on stderr (errors logged by actions and the worker). */
  errors(): string;
}

/**
 * `next start` on `databaseUrl`, run as `node …/next start` so that its PID is the server's own
 * (for RSS); with `cpuProfileDir`, under `node --cpu-prof`. Resolves once it serves /login.
 */
export async function startServer(options: {
  buildDir: string;
  port: number;
  databaseUrl: string;
  authSecret: string;
  cpuProfileDir?: string;
  /** NODE_OPTIONS for the server; by default those `npm start` gives it (its heap limit). */
  nodeOptions?: string;
  /** The benchmark's name, for what it logs; `answers-over-http` unless given. */
  label?: string;
  /** More environment for the server (e.g. `PARLEY_API_RATE_LIMIT`). */
  env?: Record<string, string>;
}): Promise<BenchServer> {
  const base = new URL(`http://127.0.0.1:${options.port}`);
  // Another server on the port (one left behind by an interrupted run) would answer in this one's place.
  if ((await statusOf(new URL("/login", base))) !== 0) throw new Error(`port ${options.port} is already in use: stop what listens there first`);
  const profile = options.cpuProfileDir ? ["--cpu-prof", "--cpu-prof-dir", options.cpuProfileDir] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, nextBin, "start", "-p", String(options.port), "-H", "127.0.0.1", ...SERVER_ARGUMENTS], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      AUTH_SECRET: options.authSecret,
      PARLEY_BUILD_DIR: options.buildDir,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(options.port),
      NODE_ENV: "production",
      NODE_OPTIONS: options.nodeOptions ?? serverNodeOptions({ ...process.env, NODE_OPTIONS: "" }),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  child.stdout!.resume();
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      // A server that dies under load must say why, there and then: the load generators only see refused connections.
      if (!stopping) console.error(`[${options.label ?? "answers-over-http"}] next start exited during the run (${code ?? signal}); its last output:\n${stderr.slice(-4000)}`);
      resolve();
    }),
  );
  // However the benchmark ends, the server goes with it.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}): ${stderr.slice(-2000)}`);
    if ((await statusOf(new URL("/login", base))) === 200) break;
    if (Date.now() > deadline) throw new Error(`next start did not serve /login within 60 s: ${stderr.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    pid: child.pid!,
    base,
    errors: () => stderr,
    async stop() {
      process.off("exit", killOnExit);
      stopping = true;
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The HTTP status of a GET, or 0 when nothing answers. */
function statusOf(url: URL): Promise<number> {
  return new Promise((resolve) => {
    http
      .get(url, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on("error", () => resolve(0));
  });
}

/** A process's resident memory (VmRSS) in MiB, or NaN once it is gone. */
export function rssMiB(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

const TICKS_PER_SECOND = 100;

/** CPU time a process has used so far (user + system), milliseconds; with `children`, also its reaped children's. */
export function cpuMs(pid: number, children = false): number {
  try {
    // Fields after the command (which may contain spaces) start at the last ')'.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(")").at(-1)!.trim().split(/\s+/);
    // utime, stime, cutime, cstime are fields 14–17 of stat, 12–15 after the command.
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [number, number, number, number];
    return ((utime + stime + (children ? cutime + cstime : 0)) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time of one thread of a process so far (user + system), milliseconds; the main thread's is
 * `threadCpuMs(pid)` — in Node, the one JavaScript runs on (GC helpers and libuv's pool are others).
 */
export function threadCpuMs(pid: number, tid = pid): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(")").at(-1)!.trim().split(/\s+/);
    const [utime, stime] = fields.slice(11, 13).map(Number) as [number, number];
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * The whole machine's CPU time so far (/proc/stat, every core): `busy` (user, nice, system, irq,
 * softirq, steal) and `total` (busy + idle + iowait), milliseconds — what the other tenants of a
 * shared machine took is `busy` minus what the benchmark's own processes took.
 */
export function machineCpuMs(): { busy: number; total: number } {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n").find((each) => each.startsWith("cpu "))!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
    return { busy: (busy * 1000) / TICKS_PER_SECOND, total: ((busy + idle! + iowait!) * 1000) / TICKS_PER_SECOND };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/** CPU time of a PostgreSQL server so far: the postmaster, its live backends and the ones that exited. */
export function postgresCpuMs(postmasterPid: number): number {
  let total = cpuMs(postmasterPid, true);
  try {
    const children = readFileSync(`/proc/${postmasterPid}/task/${postmasterPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    for (const child of children) total += cpuMs(Number(child)) || 0;
  } catch {
    return Number.NaN;
  }
  return total;
}

/** The postmaster's PID of the PostgreSQL data folder `dataDir` (first line of postmaster.pid). */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `intervalMs` until stopped; each sample is [epoch ms, MiB]. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): [number, number][]; peek(): [number, number][] } {
  const samples: [number, number][] = [];
  const take = () => samples.push([Date.now(), rssMiB(pid)]);
  take();
  const timer = setInterval(take, intervalMs);
  return {
    /** The samples so far, while it goes on sampling. */
    peek: () => [...samples],
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}
