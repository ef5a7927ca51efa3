import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { groupMembers, groups } from "@/db/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

describe.each(DATABASE_KINDS)("ask_person's escalation on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  it("is kept with the ask and adds the group at its moment", async () => {
    fixture = await createAskFixture(kind);
    const [finance] = await fixture.database.db.insert(groups).values({ name: "finance" }).returning();
    await fixture.database.db.insert(groupMembers).values({ groupId: finance!.id, userId: fixture.bo.id });
    client = await connectClient(fixture);
    const asked = await client.callTool({
      name: "ask_person",
      arguments: { to: "ada@parley.test", question: "Ship it?", due_in_seconds: 1000, escalation: [{ after_percent: 80, action: "add_group", group: "finance" }] },
    });
    expect(asked.isError).toBeFalsy();

    fixture.advance(800_000);
    await fixture.runtime.tick();
    expect(await fixture.runtime.questionsFor(fixture.bo.id)).toHaveLength(1);
  });

  it.each([
    ["without a deadline", { escalation: [{ after_percent: 50, action: "remind" }] }, "escalation"],
    ["adding a group that does not exist", { due_in_seconds: 1000, escalation: [{ after_percent: 80, action: "add_group", group: "legal" }] }, "escalation[0].group"],
  ])("%s is a tool error naming the argument", async (_name, extra, path) => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture);
    const result = await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Ship it?", ...extra } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(`(${path}): `);
    expect((await fixture.service.list(fixture.key, {})).data).toEqual([]);
  });
});
