import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "@/db/client";
import { authenticateApiKey } from "@/lib/api-keys";
import { AppError } from "@/lib/errors";
import type { QuestionsApi } from "@/lib/questions-api/questions-api";
import { apiJson, apiRoute, readJsonBody } from "@/lib/server/api-request";

/**
 * The person's routes (app/api/v1/me, questions, …/answer, …/nothing) over a test's own database
 * and {@link QuestionsApi}, on a loopback port: the same handler steps as the route files (bearer
 * token of kind personal, the API's body reader, its error shape), without building Next.js — so
 * the `parley` command can be driven against them in a pseudo-terminal.
 */
export async function servePersonApi(db: Db, api: QuestionsApi): Promise<{ url: string; close(): Promise<void> }> {
  async function handle(request: Request): Promise<Response> {
    return apiRoute(request, "/api/v1/questions", async () => {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
      const key = match ? await authenticateApiKey(db, match[1]!) : undefined;
      if (!key || key.kind !== "personal") throw new AppError("unauthorized", "This personal token is unknown or was revoked.");
      const { pathname, searchParams } = new URL(request.url);
      const [, id, action] = /^\/api\/v1\/questions(?:\/([^/]+)(?:\/(answer|nothing))?)?$/.exec(pathname) ?? [];
      if (request.method === "GET" && pathname === "/api/v1/me") return apiJson(await api.me(key));
      if (request.method === "GET" && pathname === "/api/v1/questions") {
        const limit = searchParams.get("limit");
        return apiJson(await api.list(key, { ...(limit ? { limit: Number(limit) } : {}), cursor: searchParams.get("cursor") }));
      }
      if (request.method === "GET" && id && !action) return apiJson(await api.get(key, decodeURIComponent(id)));
      if (request.method === "POST" && id && action === "answer") return apiJson(await api.answer(key, decodeURIComponent(id), await readJsonBody(request)));
      if (request.method === "POST" && id && action === "nothing") return apiJson(await api.nothing(key, decodeURIComponent(id), await readJsonBody(request)));
      throw new AppError("not_found", "No such route.");
    });
  }

  async function adapt(incoming: IncomingMessage, outgoing: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await handle(new Request(`http://127.0.0.1${incoming.url}`, { method: incoming.method!, headers, ...(body ? { body } : {}) }));
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  }

  const server = createServer((incoming, outgoing) => {
    adapt(incoming, outgoing).catch((error: unknown) => {
      outgoing.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
