import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

describe.each(DATABASE_KINDS)("ask_person with an idempotency key on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  it("called again with the same key and arguments is the same ask, asked once; with other arguments a tool error naming idempotency_key", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const args = { to: "ada@parley.test", question: "Rotate the keys tonight?", idempotency_key: "rotate-2026-12-04" };
    const first = await client.callTool({ name: "ask_person", arguments: args });
    const again = await client.callTool({ name: "ask_person", arguments: args });
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toHaveLength(1);

    const other = await client.callTool({ name: "ask_person", arguments: { ...args, question: "Rotate the keys tomorrow?" } });
    expect(other.isError).toBe(true);
    expect(other.content).toEqual([{ type: "text", text: expect.stringMatching(/^idempotency_conflict \(idempotency_key\): /) }]);
    expect((await fixture.service.list(fixture.key, {})).data).toHaveLength(1);
  });
});
