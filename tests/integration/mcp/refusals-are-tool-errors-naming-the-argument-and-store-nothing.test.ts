import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

/** The text of a tool result. */
function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text?: string }[]).map((each) => each.text ?? "").join("\n");
}

describe.each(DATABASE_KINDS)("a refused MCP tool call on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  it.each([
    ["missing to", { question: "Ship it?" }, /Give to: the email of the person/, undefined],
    ["an unknown person", { to: "nobody@parley.test", question: "Ship it?" }, /nobody@parley\.test/, "to"],
    ["someone who answers nothing", { to: "olive@parley.test", question: "Ship it?" }, /not an assignee/, "to"],
    ["a schema Parley cannot ask", { to: "ada@parley.test", question: "Ship it?", response_schema: { type: "object", properties: { a: { $ref: "#/x" } } } }, /\$ref/, "response_schema.properties.a.$ref"],
    ["a 1 MB question", { to: "ada@parley.test", question: "x".repeat(1024 * 1024) }, /question/, undefined],
    ["options and a schema both", { to: "ada@parley.test", question: "Ship it?", options: ["yes", "no"], response_schema: { type: "object" } }, /not both/, "response_schema"],
  ])("%s is a tool error naming the argument, and nothing is stored", async (_name, args, message, path) => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const result = await client.callTool({ name: "ask_person", arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    if (path) expect(result.structuredContent).toMatchObject({ error: { path } });
    expect((await fixture.service.list(fixture.key, {})).data).toEqual([]);
  });

  it("another key's ask is unknown to await_answer and cancel_ask", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.otherKey, { to: "ada@parley.test", title: "Whose ask?" });
    client = await connectClient(fixture);
    for (const name of ["await_answer", "cancel_ask"]) {
      const result = await client.callTool({ name, arguments: { ask_id: ask.id, wait_seconds: 0 } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: "not_found", path: "ask_id" } });
    }
    expect((await fixture.service.get(fixture.otherKey, ask.id)).status).toBe("open");
  });
});
