import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type McpHttpEndpoint, startMcpHttpEndpoint } from "./mcp-http-endpoint";

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "parley-test", version: "1.0.0" } } };

describe("Parley's MCP endpoint over HTTP", () => {
  let endpoint: McpHttpEndpoint | undefined;
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });

  /** POSTs an initialize request to the endpoint with `headers`. */
  function initialize(headers: Record<string, string>): Promise<Response> {
    return fetch(endpoint!.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(INITIALIZE),
    });
  }

  it("refuses a page on another site with 403, even with a live key, and lets in no Origin, this machine's pages and Parley's own address", async () => {
    vi.stubEnv("PARLEY_PUBLIC_URL", "https://parley.example.test");
    endpoint = await startMcpHttpEndpoint();
    const authorization = `Bearer ${endpoint.secret}`;

    // A DNS-rebinding page: its Origin and the Host the browser sends both name the attacker's domain.
    const rebound = await initialize({ authorization, origin: "http://evil.example.com", host: "evil.example.com" });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ error: { code: "forbidden", message: expect.stringMatching(/Origin/) } });
    for (const origin of ["null", "https://parley.example.test.evil.example.com", "http://parley.example.test"]) {
      expect((await initialize({ authorization, origin })).status, origin).toBe(403);
    }

    const allowed: Record<string, string>[] = [{}, { origin: "https://parley.example.test" }, { origin: "http://localhost:6274" }, { origin: "http://127.0.0.1:3000" }, { origin: "http://[::1]:3000" }];
    for (const headers of allowed) {
      expect((await initialize({ authorization, ...headers })).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("answers a request without a key, or with an unknown one, 401 saying a bearer API key is wanted", async () => {
    endpoint = await startMcpHttpEndpoint();

    const without = await initialize({});
    expect(without.status).toBe(401);
    expect(without.headers.get("www-authenticate")).toBe('Bearer realm="Parley", error_description="Send an agent API key: Authorization: Bearer <key>"');
    expect(await without.json()).toMatchObject({ error: { code: "unauthorized" } });

    const unknown = await initialize({ authorization: "Bearer pk_not_a_key" });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toBe('Bearer realm="Parley", error="invalid_token", error_description="This API key is unknown or was revoked"');
  });

  it("serves the official client over HTTP with the key", async () => {
    endpoint = await startMcpHttpEndpoint();
    const client = new Client({ name: "parley-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { authorization: `Bearer ${endpoint.secret}` } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["ask_person", "await_answer", "cancel_ask", "list_people"]);
    } finally {
      await client.close();
    }
  });
});
