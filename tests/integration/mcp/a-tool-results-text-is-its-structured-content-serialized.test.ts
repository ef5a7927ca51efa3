import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

// The spec: a tool that returns structured content SHOULD also return it serialized as JSON in a text block,
// for clients that read only text. Parley's line telling a model what to do next comes after it.
describe.each(DATABASE_KINDS)("a tool result's text on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  it("is first its structured content serialized as JSON, then what to do next", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const results = [await client.callTool({ name: "list_people", arguments: {} })];
    results.push(await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Ship it?" } }));
    const { ask_id } = results[1]!.structuredContent as { ask_id: string };
    results.push(await client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 0 } }));
    results.push(await client.callTool({ name: "cancel_ask", arguments: { ask_id } }));
    for (const result of results) {
      const [serialized, next] = result.content as { type: string; text: string }[];
      expect(serialized?.type).toBe("text");
      expect(JSON.parse(serialized!.text)).toEqual(result.structuredContent);
      expect(next).toMatchObject({ type: "text", text: expect.any(String) });
    }
  });
});
