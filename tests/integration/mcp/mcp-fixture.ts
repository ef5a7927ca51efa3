import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ApiKey } from "@/db/schema";
import { createParleyMcpServer } from "@/lib/mcp/parley-mcp-server";
import type { AskFixture } from "../asks/ask-fixture";

/** The official MCP client connected in memory to Parley's MCP server acting as `key`. */
export async function connectClient(fixture: AskFixture, key: ApiKey = fixture.key): Promise<Client> {
  const server = createParleyMcpServer({ service: fixture.service, db: fixture.database.db, key, progressIntervalMs: 200 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "parley-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}
