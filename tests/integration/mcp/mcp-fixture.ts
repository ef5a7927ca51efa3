import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ApiKey } from "@/db/schema";
import { createParleyMcpServer } from "@/lib/mcp/parley-mcp-server";
import type { AskFixture } from "../asks/ask-fixture";

/** How a test's client connects: as `key` (the fixture's by default), and whether it declares task support. */
export interface ConnectOptions {
  key?: ApiKey;
  /** Declare the client's `tasks` capability, as a client that runs tools as MCP tasks does. */
  tasks?: boolean;
  /** How long the server's `tasks/result` waits on an open ask (its 50 s bound unless given). */
  taskResultWaitSeconds?: number;
}

/**
 * The official MCP client connected in memory to Parley's MCP server acting as `key`, having listed
 * the tools as every real client does first — so it validates each result against its tool's output
 * schema, as theirs do.
 */
export async function connectClient(fixture: AskFixture, options: ConnectOptions = {}): Promise<Client> {
  const server = createParleyMcpServer({
    service: fixture.service,
    db: fixture.database.db,
    key: options.key ?? fixture.key,
    progressIntervalMs: 200,
    taskPollIntervalMs: 100,
    ...(options.taskResultWaitSeconds === undefined ? {} : { taskResultWaitSeconds: options.taskResultWaitSeconds }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "parley-test", version: "1.0.0" }, options.tasks ? { capabilities: { tasks: { list: {}, cancel: {} } } } : {});
  await client.connect(clientSide);
  await client.listTools();
  return client;
}
