import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

describe.each(DATABASE_KINDS)("the two-tool pattern over MCP on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  it("lists the four tools with input and output schemas", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask_person", "await_answer", "cancel_ask", "list_people"]);
    const askPerson = tools.find((tool) => tool.name === "ask_person")!;
    expect(askPerson.inputSchema.required).toEqual(["to", "question"]);
    expect(Object.keys(askPerson.inputSchema.properties ?? {})).toEqual(["to", "question", "options", "response_schema", "due_in_seconds", "escalation", "idempotency_key"]);
    expect(askPerson.outputSchema?.properties).toHaveProperty("ask_id");
    expect(askPerson.description).toMatch(/await_answer/);
    const awaitAnswer = tools.find((tool) => tool.name === "await_answer")!;
    expect(awaitAnswer.inputSchema.properties).toHaveProperty("wait_seconds", expect.objectContaining({ maximum: 50 }));
    expect(awaitAnswer.outputSchema?.properties).toHaveProperty("still_waiting_seconds");
  });

  it("ask_person returns open at once; await_answer is open while nobody answers, then the typed answer and who gave it", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const asked = await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Ship release 4.2 today?" } });
    expect(asked.isError).toBeFalsy();
    const { ask_id, status, url } = asked.structuredContent as { ask_id: string; status: string; url: string };
    expect(status).toBe("open");
    expect(url).toMatch(/\/questions\//);
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    expect(question?.title).toBe("Ship release 4.2 today?");

    const started = performance.now();
    const still = await client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 1 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(still.structuredContent).toMatchObject({ status: "open", still_waiting_seconds: expect.any(Number) });
    expect(JSON.stringify(still.content)).toMatch(/call await_answer again/i);

    const waiting = client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 20 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "Yes, after 3pm." } } });
    const answered = await waiting;
    expect(answered.structuredContent).toMatchObject({ status: "answered", answer: "Yes, after 3pm.", answered_by: { email: "ada@parley.test", name: "Ada Answerer" } });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("sends progress notifications while it waits when the client gave a progress token", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const asked = await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Which region?" } });
    const { ask_id } = asked.structuredContent as { ask_id: string };
    const progress: number[] = [];
    const result = await client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 1 } }, undefined, { onprogress: (each) => progress.push(each.progress) });
    expect(result.structuredContent).toMatchObject({ status: "open" });
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it("a long question keeps every word: its first line is the title, the whole question the body", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const question = `Approve the migration?\n${"Details. ".repeat(100)}`;
    await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question } });
    const [asked] = await fixture.runtime.questionsFor(fixture.ada.id);
    expect(asked?.title).toBe("Approve the migration?");
    const { data } = await fixture.service.list(fixture.key, {});
    expect(data[0]?.body).toBe(question.trim());
  });
});
