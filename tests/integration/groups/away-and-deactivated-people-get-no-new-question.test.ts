import { afterEach, describe, expect, it } from "vitest";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createTeamFixture, type TeamFixture } from "./team-fixture";

describe.each(DATABASE_KINDS)("asking someone away or deactivated (%s)", (kind) => {
  let fixture: TeamFixture;
  afterEach(async () => fixture?.database.close());

  it("goes to the delegate an away person named, and says whom it was meant for", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.setPerson(fixture.fatima.id, { away: true, delegateId: fixture.olu.id });
    const { taskId, questionId } = await fixture.ask(fixture.fatima.id);

    expect(await fixture.runtime.questionsFor(fixture.fatima.id)).toEqual([]);
    const [question] = await fixture.runtime.questionsFor(fixture.olu.id);
    expect(question).toMatchObject({ id: questionId, slot: { assigneeId: fixture.olu.id, delegatedFrom: fixture.fatima.id, delegatedFromName: "Fatima Finance" } });
    expect(await fixture.runtime.submitAnswer({ questionId, by: fixture.olu.id, answer: { text: { approve: "yes" } } })).toMatchObject({ status: "answered" });
    await fixture.runtime.drain();
    expect(await fixture.inputOf(taskId)).toMatchObject({ decision: { approve: true } });
  });

  it("gives the flow nothing (away) at once when the delegate is away too", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.setPerson(fixture.olu.id, { away: true });
    await fixture.setPerson(fixture.fatima.id, { away: true, delegateId: fixture.olu.id });
    const { taskId } = await fixture.ask(fixture.fatima.id);

    expect(await fixture.inputOf(taskId)).toMatchObject({ nothing: "away" });
    expect(await fixture.runtime.questionsFor(fixture.olu.id)).toEqual([]);
  });

  it("gives the flow nothing at once with reason unavailable for a deactivated person", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.setPerson(fixture.fatima.id, { deactivatedAt: new Date() });
    const { taskId } = await fixture.ask(fixture.fatima.id);

    expect(await fixture.inputOf(taskId)).toMatchObject({ nothing: "unavailable" });
    const [question] = await listQuestionsForTask(fixture.database.db, taskId);
    expect(question).toMatchObject({ status: "nothing", reason: "unavailable" });
  });

  it("still asks the candidates who are in when one of several is deactivated", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.setPerson(fixture.fatima.id, { deactivatedAt: new Date() });
    const { questionId } = await fixture.ask([fixture.fatima.id, fixture.femi.id]);

    expect((await fixture.runtime.questionsFor(fixture.femi.id)).map((question) => question.id)).toEqual([questionId]);
    expect(await fixture.runtime.questionsFor(fixture.fatima.id)).toEqual([]);
  });
});
