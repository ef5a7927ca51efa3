import { afterEach, describe, expect, it } from "vitest";
import { groups } from "@/db/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

const ASK = { to: "ada@parley.test", title: "Approve the invoice?", due_in_seconds: 3600 };

describe.each(DATABASE_KINDS)("a bad escalation chain on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it.each([
    ["without a deadline", { ...ASK, due_in_seconds: undefined, escalation: [{ after_percent: 50, action: "remind" }] }, "unprocessable", "escalation", /needs a deadline/],
    ["adding a group that does not exist", { ...ASK, escalation: [{ after_percent: 50, action: "remind" }, { after_percent: 80, action: "add_group", group: "legal" }] }, "unknown_group", "escalation[1].group", /no group “legal”/],
    ["at 100 %", { ...ASK, escalation: [{ after_percent: 100, action: "remind" }] }, "invalid_input", "escalation[0].after_percent", /Less than 100/],
    ["at 0 %", { ...ASK, escalation: [{ after_percent: 0, action: "remind" }] }, "invalid_input", "escalation[0].after_percent", /More than 0/],
    ["adding no group", { ...ASK, escalation: [{ after_percent: 80, action: "add_group" }] }, "invalid_input", "escalation[0].group", /needs the group/],
    ["reminding a group", { ...ASK, escalation: [{ after_percent: 80, action: "remind", group: "finance" }] }, "invalid_input", "escalation[0].group", /takes no group/],
    ["with an unknown action", { ...ASK, escalation: [{ after_percent: 80, action: "page" }] }, "invalid_input", "escalation[0].action", /./],
  ])("%s is refused naming the field, and nothing is stored", async (_name, body, code, path, message) => {
    fixture = await createAskFixture(kind);
    await fixture.database.db.insert(groups).values({ name: "finance" });

    await expect(fixture.service.create(fixture.key, body)).rejects.toMatchObject({ code, path, message: expect.stringMatching(message) });
    expect((await fixture.service.list(fixture.key, {})).data).toEqual([]);
  });
});
