import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { installedHandler } from "./ask-person-task";

/** The JSON Schema dialect MCP takes when a schema names none (2025-11-25, SEP-1613), and the one Parley's tools name. */
export const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** `schema` in JSON Schema 2020-12, as the tool's arguments (`input`) or result (`output`). */
function inJsonSchema2020(schema: RegisteredTool["inputSchema"], io: "input" | "output"): Record<string, unknown> | undefined {
  return schema instanceof z.ZodType ? (z.toJSONSchema(schema, { target: "draft-2020-12", io }) as Record<string, unknown>) : undefined;
}

/**
 * Lists `tools` with their input and output schemas in JSON Schema 2020-12, MCP's dialect, made from
 * the same zod schemas the SDK validates with. The SDK (1.32.2) writes them as draft-07 and says so
 * in `$schema`, which clients that validate only 2020-12 refuse, leaving the tool unusable. Call it
 * after every tool is registered and after any other `tools/list` handler is set.
 */
export function listToolsInJsonSchema2020(server: McpServer, tools: Record<string, RegisteredTool>): void {
  const listTools = installedHandler(server, "tools/list");
  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const listed = (await listTools(request, extra)) as ListToolsResult;
    return {
      ...listed,
      tools: listed.tools.map((tool) => {
        const registered = tools[tool.name];
        const inputSchema = inJsonSchema2020(registered?.inputSchema, "input");
        const outputSchema = inJsonSchema2020(registered?.outputSchema, "output");
        return { ...tool, ...(inputSchema ? { inputSchema: inputSchema as ListToolsResult["tools"][number]["inputSchema"] } : {}), ...(outputSchema ? { outputSchema: outputSchema as ListToolsResult["tools"][number]["inputSchema"] } : {}) };
      }),
    };
  });
}
