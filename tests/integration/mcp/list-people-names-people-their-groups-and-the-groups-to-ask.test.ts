import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { groupMembers, groups } from "@/db/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

describe.each(DATABASE_KINDS)("list_people over MCP on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  async function withFinance(): Promise<void> {
    const [finance] = await fixture!.database.db.insert(groups).values({ name: "finance" }).returning();
    await fixture!.database.db.insert(groupMembers).values([fixture!.bo, fixture!.cy].map((member) => ({ groupId: finance!.id, userId: member.id })));
  }

  it("names who can be asked with their groups and whether they are away, and the groups with how many are there", async () => {
    fixture = await createAskFixture(kind);
    await withFinance();
    client = await connectClient(fixture);
    const all = await client.callTool({ name: "list_people", arguments: {} });

    expect(all.structuredContent).toEqual({
      people: [
        { name: "Ada Answerer", email: "ada@parley.test", groups: [], away: false },
        { name: "Bo Second", email: "bo@parley.test", groups: ["finance"], away: false },
        { name: "Cy Away", email: "cy@parley.test", groups: ["finance"], away: true },
      ],
      groups: [{ name: "finance", members: 2, present: 1 }],
    });
  });

  it("filters by part of a name, an email or a group", async () => {
    fixture = await createAskFixture(kind);
    await withFinance();
    client = await connectClient(fixture);

    const away = await client.callTool({ name: "list_people", arguments: { query: "AWAY" } });
    expect(away.structuredContent).toEqual({ people: [{ name: "Cy Away", email: "cy@parley.test", groups: ["finance"], away: true }], groups: [] });
    const finance = await client.callTool({ name: "list_people", arguments: { query: "fin" } });
    expect((finance.structuredContent as { people: { email: string }[] }).people.map((person) => person.email)).toEqual(["bo@parley.test", "cy@parley.test"]);
  });

  it("names a group ask_person can ask as a team: any member may answer", async () => {
    fixture = await createAskFixture(kind);
    await withFinance();
    client = await connectClient(fixture);
    const asked = await client.callTool({ name: "ask_person", arguments: { to: { group: "finance" }, question: "May we renew the licence?" } });

    expect(asked.structuredContent).toMatchObject({ status: "open" });
    expect(await fixture.runtime.questionsFor(fixture.bo.id)).toHaveLength(1);
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toEqual([]);
  });
});
