// The HTTP API benchmark's load generator, run as a child process (so that its CPU is counted apart
// from the server's and the benchmark's): a fixed pool of kept-alive HTTP/1.1 connections (one
// node:http Agent, maxSockets = the pool), and as many workers as the job asks, each taking the next
// item from one shared list and waiting for its reply before taking another. An item is one request,
// or several sent at the same moment (a race). Long polls are opened all at once on a pool of their own.
import http from "node:http";

/** One request: JSON in, the reply read to the end. */
export interface ApiRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One reply as the load generator saw it; times are epoch milliseconds with sub-millisecond precision. */
export interface ApiResult {
  /** Which item of the job, and which of its requests. */
  item: number;
  part: number;
  /** 0 when no reply came (the error is in `body`). */
  status: number;
  /** The reply body (when the job keeps them), else its first 300 characters for a status other than 2xx. */
  body: string;
  start: number;
  end: number;
}

/** What the parent asks for. */
export type LoadMessage =
  | { type: "run"; id: number; base: string; connections: number; workers: number; items: ApiRequest[][]; keepBodies: boolean; gapMs?: number }
  | { type: "open"; id: number; base: string; requests: ApiRequest[] }
  | { type: "clock"; id: number }
  | { type: "exit" };

/** What the child sends back. */
export type LoadReply =
  | { type: "ready" }
  | { type: "ran"; id: number; results: ApiResult[]; cpuMs: number; connectionsOpened: number; startedAt: number; endedAt: number }
  /** Every long poll of an `open` job has been written to its socket. */
  | { type: "opened"; id: number; at: number }
  /** …and every one has had its reply. */
  | { type: "polled"; id: number; results: ApiResult[]; cpuMs: number }
  | { type: "clock"; id: number; at: number };

export const clock = () => performance.timeOrigin + performance.now();

/** Sends one request on `agent`; resolves with the reply (never rejects). `sockets` collects the connections used. */
function send(agent: http.Agent, base: URL, request: ApiRequest, keepBody: boolean, sockets: Set<unknown>, onWritten?: () => void): Promise<Omit<ApiResult, "item" | "part">> {
  const start = clock();
  return new Promise((resolve) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
    const outgoing = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        headers: { ...request.headers, ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status, body: keepBody || status < 200 || status >= 300 ? (keepBody ? text : text.slice(0, 300)) : "", start, end: clock() });
        });
        response.on("error", (error) => resolve({ status: 0, body: String(error), start, end: clock() }));
      },
    );
    outgoing.on("socket", (socket) => sockets.add(socket));
    outgoing.on("error", (error) => resolve({ status: 0, body: String(error), start, end: clock() }));
    if (onWritten) outgoing.on("finish", onWritten);
    outgoing.end(body);
  });
}

/** Runs a job's items on a fixed pool of `connections` sockets with `workers` workers. */
async function run(message: Extract<LoadMessage, { type: "run" }>): Promise<Extract<LoadReply, { type: "ran" }>> {
  const base = new URL(message.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: message.connections, maxFreeSockets: message.connections });
  const sockets = new Set<unknown>();
  const results: ApiResult[] = [];
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const startedAt = clock();
  await Promise.all(
    Array.from({ length: message.workers }, async () => {
      while (next < message.items.length) {
        const item = next++;
        const parts = message.items[item]!;
        const replies = await Promise.all(parts.map((request) => send(agent, base, request, message.keepBodies, sockets)));
        replies.forEach((reply, part) => results.push({ item, part, ...reply }));
        if (message.gapMs) await new Promise((resolve) => setTimeout(resolve, message.gapMs));
      }
    }),
  );
  const endedAt = clock();
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return { type: "ran", id: message.id, results, cpuMs: (cpu.user + cpu.system) / 1000, connectionsOpened: sockets.size, startedAt, endedAt };
}

/** Opens every long poll at once (a socket each); says so once all are written, and again with the replies. */
async function open(message: Extract<LoadMessage, { type: "open" }>): Promise<void> {
  const base = new URL(message.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: message.requests.length });
  const sockets = new Set<unknown>();
  let written = 0;
  const cpuBefore = process.cpuUsage();
  const replies = message.requests.map((request) =>
    send(agent, base, request, true, sockets, () => {
      written += 1;
      if (written === message.requests.length) process.send!({ type: "opened", id: message.id, at: clock() } satisfies LoadReply);
    }),
  );
  const results = (await Promise.all(replies)).map((reply, item): ApiResult => ({ item, part: 0, ...reply }));
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  process.send!({ type: "polled", id: message.id, results, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies LoadReply);
}

if (process.send) {
  process.on("message", (message: LoadMessage) => {
    if (message.type === "exit") process.exit();
    else if (message.type === "clock") process.send!({ type: "clock", id: message.id, at: clock() } satisfies LoadReply);
    else if (message.type === "run") void run(message).then((reply) => process.send!(reply));
    else void open(message);
  });
  // The benchmark ended (or died): so does its load generator.
  process.on("disconnect", () => process.exit());
  process.send({ type: "ready" } satisfies LoadReply);
}
