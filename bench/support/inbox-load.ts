// The inbox benchmark's load tool: GETs pages over keep-alive HTTP connections on loopback, from a
// process of its own (so that it neither shares the server's event loop nor the benchmark's).
// `runLoad(job)` starts it and returns what every request took as the client saw it; each request
// carries an `x-bench-request` id, which the server's own timer (inbox-request-timer.mjs) reports against.
import { type ChildProcess, fork } from "node:child_process";
import http from "node:http";
import path from "node:path";

/** One kind of request: a page, fetched as one signed-in person (or several, taken in turn). */
export interface LoadScenario {
  name: string;
  path: string;
  /** Session cookies, one per person; requests go round them. */
  cookies: string[];
  /** Instead of a session: an API key, sent as `Authorization: Bearer <key>`. */
  bearer?: string;
  /** At most this many requests of this scenario in an interleaved job (fewer rounds for a slow page); unset, one a round. */
  rounds?: number;
}

/** What the load tool is asked to do. */
export type LoadJob =
  | {
      /** Every scenario once per round, in a rotating order, `rounds` times, on `concurrency` connections at once. */
      kind: "interleaved";
      /** Prefixes the request ids, which must be unique across the jobs of one server. */
      run: string;
      baseUrl: string;
      scenarios: LoadScenario[];
      rounds: number;
      concurrency: number;
    }
  | {
      /** Each scenario alone, in turn: its `rounds` requests (the job's `rounds` when it sets none) on `concurrency` connections. */
      kind: "blocks";
      run: string;
      baseUrl: string;
      scenarios: LoadScenario[];
      rounds: number;
      concurrency: number;
    }
  | {
      /** Each scenario alone for `seconds`, in turn, `rounds` times: requests completed per second. */
      kind: "throughput";
      run: string;
      baseUrl: string;
      scenarios: LoadScenario[];
      rounds: number;
      seconds: number;
      concurrency: number;
    };

/** One request as the client saw it. */
export interface ClientSample {
  id: string;
  scenario: string;
  status: number;
  bytes: number;
  clientMs: number;
  /** When it was sent and when its last byte came, in epoch milliseconds (to line up with samples taken elsewhere). */
  startedAt: number;
  endedAt: number;
}

/** What a load job measured. */
export interface LoadResult {
  samples: ClientSample[];
  wallMs: number;
  /** Throughput jobs: requests per second, one figure per round, by scenario. */
  rates: Record<string, number[]>;
}

/** Runs a load job in a child process and returns what it measured. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, "inbox-load.ts"), ["--child"], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (message) => {
      const reply = message as { ok: true; result: LoadResult } | { ok: false; error: string };
      child.disconnect();
      if (reply.ok) resolve(reply.result);
      else reject(new Error(`load tool: ${reply.error}`));
    });
    child.once("exit", (code) => reject(new Error(`load tool exited (${code}) without a result`)));
    child.send(job);
  });
}

function get(agent: http.Agent, baseUrl: string, scenario: LoadScenario, cookie: string | undefined, id: string): Promise<ClientSample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const startedAt = Date.now();
    const headers: Record<string, string> = { "x-bench-request": id };
    if (scenario.bearer) headers.authorization = `Bearer ${scenario.bearer}`;
    else if (cookie) headers.cookie = cookie;
    const request = http.get(new URL(scenario.path, baseUrl), { agent, headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () =>
        resolve({ id, scenario: scenario.name, status: response.statusCode ?? 0, bytes, clientMs: performance.now() - started, startedAt, endedAt: Date.now() }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

async function interleaved(job: Extract<LoadJob, { kind: "interleaved" }>): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const queue: { scenario: LoadScenario; cookie: string | undefined }[] = [];
  const turns = new Map<string, number>();
  for (let round = 0; round < job.rounds; round++) {
    // Rotate the order each round, so no scenario always follows the same one.
    for (let index = 0; index < job.scenarios.length; index++) {
      const scenario = job.scenarios[(index + round) % job.scenarios.length]!;
      const turn = turns.get(scenario.name) ?? 0;
      if (scenario.rounds !== undefined && turn >= scenario.rounds) continue;
      turns.set(scenario.name, turn + 1);
      queue.push({ scenario, cookie: scenario.cookies.length > 0 ? scenario.cookies[turn % scenario.cookies.length]! : undefined });
    }
  }
  const samples: ClientSample[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < queue.length) {
        const index = next++;
        const { scenario, cookie } = queue[index]!;
        samples.push(await get(agent, job.baseUrl, scenario, cookie, `${job.run}-${index}`));
      }
    }),
  );
  agent.destroy();
  return { samples, wallMs: performance.now() - started, rates: {} };
}

async function blocks(job: Extract<LoadJob, { kind: "blocks" }>): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const samples: ClientSample[] = [];
  let sequence = 0;
  const started = performance.now();
  for (const scenario of job.scenarios) {
    const total = scenario.rounds ?? job.rounds;
    let next = 0;
    await Promise.all(
      Array.from({ length: job.concurrency }, async () => {
        while (next < total) {
          const turn = next++;
          const cookie = scenario.cookies.length > 0 ? scenario.cookies[turn % scenario.cookies.length] : undefined;
          samples.push(await get(agent, job.baseUrl, scenario, cookie, `${job.run}-${sequence++}`));
        }
      }),
    );
  }
  agent.destroy();
  return { samples, wallMs: performance.now() - started, rates: {} };
}

async function throughput(job: Extract<LoadJob, { kind: "throughput" }>): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const rates: Record<string, number[]> = Object.fromEntries(job.scenarios.map((scenario) => [scenario.name, []]));
  const samples: ClientSample[] = [];
  let sequence = 0;
  const started = performance.now();
  for (let round = 0; round < job.rounds; round++) {
    for (let index = 0; index < job.scenarios.length; index++) {
      const scenario = job.scenarios[(index + round) % job.scenarios.length]!;
      const phaseStarted = performance.now();
      const until = phaseStarted + job.seconds * 1000;
      let completed = 0;
      await Promise.all(
        Array.from({ length: job.concurrency }, async (_, worker) => {
          let turn = worker;
          while (performance.now() < until) {
            const sample = await get(agent, job.baseUrl, scenario, scenario.cookies[turn++ % scenario.cookies.length], `${job.run}-${sequence++}`);
            if (sample.status !== 200) throw new Error(`${scenario.path} answered ${sample.status}`);
            samples.push(sample);
            completed++;
          }
        }),
      );
      rates[scenario.name]!.push(completed / ((performance.now() - phaseStarted) / 1000));
    }
  }
  agent.destroy();
  return { samples, wallMs: performance.now() - started, rates };
}

if (process.argv[2] === "--child" && process.send) {
  process.once("message", (job: LoadJob) => {
    (job.kind === "interleaved" ? interleaved(job) : job.kind === "blocks" ? blocks(job) : throughput(job)).then(
      (result) => process.send!({ ok: true, result }, () => process.exit(0)),
      (error: unknown) => process.send!({ ok: false, error: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
    );
  });
}
