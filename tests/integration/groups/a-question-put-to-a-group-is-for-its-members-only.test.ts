import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createTeamFixture, group, type TeamFixture } from "./team-fixture";

describe.each(DATABASE_KINDS)("a question put to a group (%s)", (kind) => {
  let fixture: TeamFixture;
  afterEach(async () => fixture?.database.close());

  it("is in every member's questions and in nobody else's, and someone outside the group cannot answer it", async () => {
    fixture = await createTeamFixture(kind);
    const { questionId } = await fixture.ask(group("finance"));

    expect((await fixture.runtime.questionsFor(fixture.fatima.id)).map((question) => question.id)).toEqual([questionId]);
    expect((await fixture.runtime.questionsFor(fixture.femi.id)).map((question) => question.id)).toEqual([questionId]);
    expect(await fixture.runtime.questionsFor(fixture.olu.id)).toEqual([]);
    const outsider = await fixture.runtime.submitAnswer({ questionId, by: fixture.olu.id, answer: { text: { approve: "yes" } } });
    expect(outsider).toMatchObject({ status: "forbidden" });
  });

  it("is answered once by whichever member answers first; the other is told who did", async () => {
    fixture = await createTeamFixture(kind);
    const { taskId, questionId } = await fixture.ask(group("finance"));

    expect(await fixture.runtime.submitAnswer({ questionId, by: fixture.femi.id, answer: { text: { approve: "yes" } } })).toMatchObject({ status: "answered" });
    const late = await fixture.runtime.submitAnswer({ questionId, by: fixture.fatima.id, answer: { text: { approve: "no" } } });
    expect(late).toMatchObject({ status: "conflict", answeredBy: { id: fixture.femi.id, name: "Femi Finance" } });
    await fixture.runtime.drain();
    expect(await fixture.inputOf(taskId)).toMatchObject({ decision: { approve: true } });
  });

  it("reaches someone added to the group after it was asked", async () => {
    fixture = await createTeamFixture(kind);
    const { questionId } = await fixture.ask(group("finance"));
    const { groupMembers } = await import("@/db/schema");
    await fixture.database.db.insert(groupMembers).values({ groupId: fixture.financeId, userId: fixture.olu.id });

    expect((await fixture.runtime.questionsFor(fixture.olu.id)).map((question) => question.id)).toEqual([questionId]);
  });

  it("to a group nobody in which can take it gives the flow nothing at once (away)", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.setPerson(fixture.fatima.id, { away: true });
    await fixture.setPerson(fixture.femi.id, { away: true });
    const { taskId } = await fixture.ask(group("finance"));

    expect(await fixture.inputOf(taskId)).toMatchObject({ nothing: "away" });
    expect(await fixture.runtime.questionsFor(fixture.fatima.id)).toEqual([]);
  });
});
