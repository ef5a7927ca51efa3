import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Ask } from "@parleyhq/client";

/** A request the fake server received. */
export interface Received {
  method: string;
  /** Path and query, e.g. `/api/v1/asks/…?wait=1`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

/** Answers one request: write to `response`, or destroy its socket to fail it. */
export type Handler = (request: Received, response: ServerResponse) => void | Promise<void>;

/** A tiny HTTP server a test scripts request by request, standing in for Parley. */
export interface FakeParley {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Every request received, in order. */
  received: Received[];
  /** Stops listening (new connections are refused) and drops open ones. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
}

/**
 * Starts the fake on a free port (or `port`). `handle` answers each request; the test decides what —
 * a status, a delay, a dropped connection.
 */
export async function startFakeParley(handle: Handler, port = 0): Promise<FakeParley> {
  const received: Received[] = [];
  let server: Server | undefined;
  const listen = async (on: number) => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const entry: Received = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
        received.push(entry);
        Promise.resolve(handle(entry, response)).catch((error: unknown) => {
          response.statusCode = 599;
          response.end(String(error));
        });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(on, "127.0.0.1", () => resolve());
    });
    return (server!.address() as AddressInfo).port;
  };
  const bound = await listen(port);
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    received,
    async close() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async reopen() {
      await listen(bound);
    },
  };
}

/** A port nothing listens on (free a moment ago). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Writes a JSON response. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** The API's error body. */
export function apiError(response: ServerResponse, status: number, code: string, message: string, extra: { path?: string; headers?: Record<string, string> } = {}): void {
  json(response, status, { error: { code, message, ...(extra.path !== undefined ? { path: extra.path } : {}) } }, extra.headers);
}

export const ASK_ID = "0193a000-0000-7000-8000-000000000001";

/**
 * An ask as the API returns it: open, unless `overrides` say otherwise. They may make one the API
 * never sends (an answer of the wrong type), for the client to refuse.
 */
export function askJson(overrides: { [Key in keyof Ask]?: unknown } = {}): Ask {
  return {
    id: ASK_ID,
    status: "open",
    title: "Deploy?",
    body: null,
    context: null,
    to: "sam@parley.test",
    url: `http://parley.test/questions/${ASK_ID}`,
    question_id: ASK_ID,
    due_at: null,
    created_at: "2026-12-04T09:00:00.000Z",
    metadata: null,
    attempts: { allowed: 3, refused: 0 },
    answer: null,
    answered_by: null,
    answered_at: null,
    waited_seconds: 0,
    reason: null,
    ...overrides,
  } as Ask;
}

/** The same ask, answered with `answer` by Sam. */
export function answeredJson(answer: unknown): Ask {
  return askJson({ status: "answered", answer, answered_by: { email: "sam@parley.test", name: "Sam Rivera" }, answered_at: "2026-12-04T09:01:00.000Z", waited_seconds: 60 });
}
