import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { vi } from "vitest";
import { POST } from "@/app/api/mcp/route";
import { stopAppRuntime } from "@/lib/app-runtime";
import { createApiKey } from "@/lib/api-keys";
import { closeDatabase, getDb } from "@/lib/database";

/** Parley's MCP route served over real HTTP on the loopback interface, on its own embedded database. */
export interface McpHttpEndpoint {
  /** `http://127.0.0.1:<port>/api/mcp`. */
  url: string;
  /** A live agent key's secret. */
  secret: string;
  close(): Promise<void>;
}

/** What the endpoint does to each request before the route sees it. */
export interface McpHttpEndpointOptions {
  /**
   * Send every request with `Authorization: Bearer <the key>` when it has none, as a client configured
   * with the key's header does — for a client that cannot be given headers (the conformance suite's).
   */
  addKey?: boolean;
}

/** The route's `Request` for a Node request: its method, headers and body, at the URL its `Host` names. */
function requestOf(incoming: IncomingMessage, authorization: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  if (authorization && !headers.has("authorization")) headers.set("authorization", authorization);
  const abort = new AbortController();
  incoming.once("close", () => abort.abort());
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  return new Request(new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "127.0.0.1"}`), {
    method: incoming.method ?? "GET",
    headers,
    signal: abort.signal,
    ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

/** Writes the route's `Response` to the Node response, streaming its body. */
async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void outgoing.end();
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) outgoing.write(read.value);
  outgoing.end();
}

/**
 * Serves `POST /api/mcp` — the route handler Next.js serves, with its key check, body reader and
 * Origin check — over node:http on 127.0.0.1, on a fresh embedded database in a folder of its own
 * with one live agent key; any other path or method is 404/405 as Next.js would answer. Stubs the
 * environment for that database until closed.
 */
export async function startMcpHttpEndpoint(options: McpHttpEndpointOptions = {}): Promise<McpHttpEndpoint> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-mcp-http-"));
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("PARLEY_DATA_DIR", dataDir);
  const { secret } = await createApiKey(await getDb(), { kind: "agent", name: "MCP over HTTP", by: null });
  const authorization = options.addKey ? `Bearer ${secret}` : undefined;
  const server = createServer((incoming, outgoing) => {
    const pathname = new URL(incoming.url ?? "/", "http://127.0.0.1").pathname;
    if (pathname !== "/api/mcp") return void outgoing.writeHead(404).end();
    if (incoming.method !== "POST") return void outgoing.writeHead(405, { allow: "POST" }).end();
    POST(requestOf(incoming, authorization))
      .then((response) => send(response, outgoing))
      .catch((error: unknown) => {
        console.error("MCP over HTTP:", error);
        if (!outgoing.headersSent) outgoing.writeHead(500);
        outgoing.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/mcp`,
    secret,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopAppRuntime();
      await closeDatabase();
      vi.unstubAllEnvs();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
