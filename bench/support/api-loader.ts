import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import { type ApiRequest, type ApiResult, clock, type LoadMessage, type LoadReply } from "./api-load";

export { clock };
export type { ApiRequest, ApiResult };

/** What a run of requests gave: the replies, and what the load generator spent on them. */
export interface LoadRun {
  results: ApiResult[];
  /** The load generator's CPU over the run, milliseconds. */
  cpuMs: number;
  /** Connections it opened (a fixed pool: at most the pool's size). */
  connectionsOpened: number;
  /** First request sent, last reply read (the load generator's clock, epoch ms). */
  startedAt: number;
  endedAt: number;
}

/** The HTTP API benchmark's load generator (bench/support/api-load.ts), in a child process of its own. */
export interface Loader {
  readonly pid: number;
  /** Sends `items` over a pool of `connections` kept-alive connections, `workers` at a time (default: one per connection). */
  run(base: string, items: ApiRequest[][], options: { connections: number; workers?: number; keepBodies?: boolean; gapMs?: number }): Promise<LoadRun>;
  /** Opens every request at once, a connection each: `opened` once all are written, `polled` once all have replied. */
  open(base: string, requests: ApiRequest[]): { opened: Promise<number>; polled: Promise<{ results: ApiResult[]; cpuMs: number }> };
  /**
   * The load generator's clock minus this process's (ms), from the IPC round trip that took least
   * time of `samples`; `uncertainty` is half that round trip.
   */
  clockOffset(samples?: number): Promise<{ offset: number; uncertainty: number }>;
  stop(): void;
}

export async function startLoader(): Promise<Loader> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, "api-load.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the load generator exited (${code}) before it was ready`)));
  });
  const waiting = new Map<string, (reply: LoadReply) => void>();
  child.on("message", (reply: LoadReply) => {
    if (reply.type === "ready") return;
    const key = `${reply.type}:${reply.id}`;
    const resolve = waiting.get(key);
    waiting.delete(key);
    resolve?.(reply);
  });
  child.once("exit", (code, signal) => {
    if (waiting.size > 0) console.error(`the load generator exited (${code ?? signal}) with ${waiting.size} replies outstanding`);
  });
  let nextId = 0;
  const expect = <T extends LoadReply["type"]>(type: T, id: number) =>
    new Promise<Extract<LoadReply, { type: T }>>((resolve) => waiting.set(`${type}:${id}`, resolve as (reply: LoadReply) => void));
  const send = (message: LoadMessage) => child.send(message);
  return {
    pid: child.pid!,
    async run(base, items, options) {
      const id = nextId++;
      const reply = expect("ran", id);
      send({ type: "run", id, base, connections: options.connections, workers: options.workers ?? options.connections, items, keepBodies: options.keepBodies ?? false, ...(options.gapMs ? { gapMs: options.gapMs } : {}) });
      const { results, cpuMs, connectionsOpened, startedAt, endedAt } = await reply;
      return { results, cpuMs, connectionsOpened, startedAt, endedAt };
    },
    open(base, requests) {
      const id = nextId++;
      const opened = expect("opened", id).then((reply) => reply.at);
      const polled = expect("polled", id).then(({ results, cpuMs }) => ({ results, cpuMs }));
      send({ type: "open", id, base, requests });
      return { opened, polled };
    },
    async clockOffset(samples = 25) {
      let best = { offset: 0, uncertainty: Number.POSITIVE_INFINITY };
      for (let index = 0; index < samples; index++) {
        const id = nextId++;
        const reply = expect("clock", id);
        const sent = clock();
        send({ type: "clock", id });
        const { at } = await reply;
        const back = clock();
        if ((back - sent) / 2 < best.uncertainty) best = { offset: at - (sent + back) / 2, uncertainty: (back - sent) / 2 };
      }
      return best;
    },
    stop() {
      if (child.connected) send({ type: "exit" });
    },
  };
}
