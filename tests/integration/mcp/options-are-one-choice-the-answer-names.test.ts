import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

describe.each(DATABASE_KINDS)("an MCP ask with options on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  it("is put as one choice with a comment, and the answer is the chosen value with the person's words", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const asked = await client.callTool({
      name: "ask_person",
      arguments: { to: "ada@parley.test", question: "Which region?", options: ["eu-west", { value: "us-east", label: "US East", description: "Cheaper, further away" }] },
    });
    const { ask_id } = asked.structuredContent as { ask_id: string };
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    const submitted = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { choice: "us-east", comment: "until March" } } });
    expect(submitted.status).toBe("answered");
    const awaited = await client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 0 } });
    expect(awaited.structuredContent).toMatchObject({ status: "answered", answer: { choice: "us-east", comment: "until March" } });
  });

  it("refuses a value that is not one of the options", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Which region?", options: ["eu-west", "us-east"] } });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    const submitted = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { choice: "mars" } } });
    expect(submitted.status).not.toBe("answered");
  });
});
