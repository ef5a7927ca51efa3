import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";

// MCP's dialect is JSON Schema 2020-12 (SEP-1613): a client that validates only 2020-12 refuses a tool whose schema says draft-07.
describe.each(DATABASE_KINDS)("the MCP tools' schemas on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  it("are JSON Schema 2020-12 by its meta-schema, and each result is valid by its tool's", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const ajv = new Ajv2020({ allErrors: true });
    addFormats(ajv);
    const { tools } = await client.listTools();
    const outputs: Record<string, ReturnType<typeof ajv.compile>> = {};
    for (const tool of tools) {
      expect(tool.inputSchema.$schema, tool.name).toBe(JSON_SCHEMA_2020_12);
      expect(tool.outputSchema?.$schema, tool.name).toBe(JSON_SCHEMA_2020_12);
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
      expect(ajv.validateSchema(tool.outputSchema!), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
      ajv.compile(tool.inputSchema);
      outputs[tool.name] = ajv.compile(tool.outputSchema!);
    }

    const asked = await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Ship it?" } });
    const { ask_id } = asked.structuredContent as { ask_id: string };
    const results = {
      ask_person: asked,
      list_people: await client.callTool({ name: "list_people", arguments: {} }),
      await_answer: await client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 0 } }),
      cancel_ask: await client.callTool({ name: "cancel_ask", arguments: { ask_id } }),
    };
    for (const [name, result] of Object.entries(results)) {
      const valid = outputs[name]!;
      expect(valid(result.structuredContent), `${name}: ${ajv.errorsText(valid.errors)}`).toBe(true);
    }
  });
});
