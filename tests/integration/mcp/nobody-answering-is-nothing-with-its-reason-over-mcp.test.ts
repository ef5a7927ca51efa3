import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

describe.each(DATABASE_KINDS)("an MCP ask nobody answers on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  async function ask(args: Record<string, unknown>): Promise<string> {
    const asked = await client!.callTool({ name: "ask_person", arguments: args });
    return (asked.structuredContent as { ask_id: string }).ask_id;
  }

  it("to someone away is nothing at once, reason away", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const asked = await client.callTool({ name: "ask_person", arguments: { to: "cy@parley.test", question: "Approve?" } });
    expect(asked.structuredContent).toMatchObject({ status: "nothing", reason: "away" });
    const awaited = await client.callTool({ name: "await_answer", arguments: { ask_id: (asked.structuredContent as { ask_id: string }).ask_id } });
    expect(awaited.structuredContent).toMatchObject({ status: "nothing", reason: "away" });
  });

  it("past its deadline is nothing, reason expired", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const id = await ask({ to: "ada@parley.test", question: "Approve?", due_in_seconds: 60 });
    fixture.advance(61_000);
    await fixture.runtime.sweepExpiredSlots();
    const awaited = await client.callTool({ name: "await_answer", arguments: { ask_id: id, wait_seconds: 0 } });
    expect(awaited.structuredContent).toMatchObject({ status: "nothing", reason: "expired" });
  });

  it("cancelled is nothing, reason cancelled, and a waiting await_answer returns it", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const id = await ask({ to: "ada@parley.test", question: "Approve?" });
    const waiting = client.callTool({ name: "await_answer", arguments: { ask_id: id, wait_seconds: 20 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelled = await client.callTool({ name: "cancel_ask", arguments: { ask_id: id } });
    expect(cancelled.structuredContent).toEqual({ ask_id: id, status: "nothing", reason: "cancelled" });
    expect((await waiting).structuredContent).toMatchObject({ status: "nothing", reason: "cancelled" });
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toEqual([]);
  });

  it("declined is nothing, reason declined, and a waiting await_answer returns who declined and their note, in its text too", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const id = await ask({ to: "ada@parley.test", question: "Approve the refund?" });
    const waiting = client.callTool({ name: "await_answer", arguments: { ask_id: id, wait_seconds: 20 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.decline({ questionId: question!.id, by: fixture.ada.id, note: "Refunds are Bo's call." });
    const awaited = await waiting;
    expect(awaited.structuredContent).toEqual({
      ask_id: id,
      status: "nothing",
      reason: "declined",
      declined_by: { email: "ada@parley.test", name: "Ada Answerer" },
      note: "Refunds are Bo's call.",
    });
    expect(awaited.content).toContainEqual({ type: "text", text: "Ada Answerer declined to answer. Their note: Refunds are Bo's call. Do not wait for this ask any more." });
  });
});
