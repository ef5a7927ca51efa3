import { afterEach, describe, expect, it } from "vitest";
import { groupMembers, groups } from "@/db/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("an ask to a group on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  async function financeOf(members: AskFixture["ada"][]): Promise<void> {
    const [finance] = await fixture!.database.db.insert(groups).values({ name: "finance" }).returning();
    await fixture!.database.db.insert(groupMembers).values(members.map((member) => ({ groupId: finance!.id, userId: member.id })));
  }

  it("is open in every member's questions, answered by whichever member answers, echoing `to` as given", async () => {
    fixture = await createAskFixture(kind);
    await financeOf([fixture.ada, fixture.bo]);
    const { ask } = await fixture.service.create(fixture.key, { to: { group: "Finance" }, title: "Approve the invoice?" });

    expect(ask).toMatchObject({ status: "open", to: { group: "Finance" } });
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toHaveLength(1);
    const [question] = await fixture.runtime.questionsFor(fixture.bo.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.bo.id, answer: { text: { answer: "Approved." } } });
    await fixture.runtime.drain();
    expect(await fixture.service.get(fixture.key, ask.id)).toMatchObject({ status: "answered", answer: "Approved.", answered_by: { email: "bo@parley.test" } });
  });

  it("to a group with nobody there but people away is nothing at once, reason away", async () => {
    fixture = await createAskFixture(kind);
    await financeOf([fixture.cy]);
    const { ask } = await fixture.service.create(fixture.key, { to: { group: "finance" }, title: "Approve the invoice?" });

    expect(ask).toMatchObject({ status: "nothing", reason: "away" });
  });

  it("to a group that does not exist is refused with unknown_group on to.group, and nothing is stored", async () => {
    fixture = await createAskFixture(kind);
    const refused = fixture.service.create(fixture.key, { to: { group: "legal" }, title: "Approve the invoice?" });

    await expect(refused).rejects.toMatchObject({ code: "unknown_group", path: "to.group", message: "There is no group “legal” in Parley." });
    expect((await fixture.service.list(fixture.key, {})).data).toEqual([]);
  });
});
