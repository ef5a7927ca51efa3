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

  // The client listed the tools first (as every real client does), so it validates what comes back: a refusal
  // must reach it as a result it reads, not as "Structured content does not match the tool's output schema".
  it.each([
    ["missing to", { question: "Ship it?" }, /Give to: the email of the person/],
    ["an unknown person", { to: "nobody@parley.test", question: "Ship it?" }, /^unknown_person \(to\): .*nobody@parley\.test/],
    ["someone who answers nothing", { to: "olive@parley.test", question: "Ship it?" }, /\(to\): .*not an assignee/],
    ["a schema Parley cannot ask", { to: "ada@parley.test", question: "Ship it?", response_schema: { type: "object", properties: { a: { $ref: "#/x" } } } }, /\(response_schema\.properties\.a\.\$ref\): .*\$ref/],
    ["a 1 MB question", { to: "ada@parley.test", question: "x".repeat(1024 * 1024) }, /question/],
    ["options and a schema both", { to: "ada@parley.test", question: "Ship it?", options: ["yes", "no"], response_schema: { type: "object" } }, /\(response_schema\): .*not both/],
  ])("%s is a tool error naming the argument, and nothing is stored", async (_name, args, message) => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const result = await client.callTool({ name: "ask_person", arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(result.structuredContent).toBeUndefined();
    expect((await fixture.service.list(fixture.key, {})).data).toEqual([]);
  });

  it("another key's ask is unknown to await_answer and cancel_ask", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.otherKey, { to: "ada@parley.test", title: "Whose ask?" });
    client = await connectClient(fixture);
    for (const name of ["await_answer", "cancel_ask"]) {
      const result = await client.callTool({ name, arguments: { ask_id: ask.id, wait_seconds: 0 } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^not_found \(ask_id\): /);
    }
    expect((await fixture.service.get(fixture.otherKey, ask.id)).status).toBe("open");
  });

  it("cancelling an answered ask is a tool error saying who answered, and the answer stands", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const asked = await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Ship it?" } });
    const { ask_id } = asked.structuredContent as { ask_id: string };
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "Yes." } } });
    const result = await client.callTool({ name: "cancel_ask", arguments: { ask_id } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^conflict.*: .*Ada Answerer/);
    expect((await fixture.service.get(fixture.key, ask_id)).status).toBe("answered");
  });
});
