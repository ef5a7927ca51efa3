import { afterEach, describe, expect, it } from "vitest";
import { reassignedAwayFrom } from "@/lib/question-view";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createTeamFixture, type TeamFixture } from "./team-fixture";

describe.each(DATABASE_KINDS)("reassigning a question (%s)", (kind) => {
  let fixture: TeamFixture;
  afterEach(async () => fixture?.database.close());

  it("leaves the old assignee unable to answer it, and able to see who has it now", async () => {
    fixture = await createTeamFixture(kind);
    const { questionId } = await fixture.ask(fixture.fatima.id);
    const [question] = await fixture.runtime.questionsFor(fixture.fatima.id);
    await fixture.runtime.reassignSlot({ slotId: question!.slot!.id, to: fixture.olu.id, by: fixture.femi.id });

    expect(await fixture.runtime.questionsFor(fixture.fatima.id)).toEqual([]);
    expect(await fixture.runtime.questionFor(questionId, fixture.fatima.id)).toBeNull();
    const refused = await fixture.runtime.submitAnswer({ questionId, by: fixture.fatima.id, answer: { text: { approve: "yes" } } });
    expect(refused).toMatchObject({ status: "forbidden" });
    expect(await reassignedAwayFrom(fixture.database.db, questionId, fixture.fatima.id)).toMatchObject({ toName: "Olu Outside" });
    expect(await fixture.runtime.submitAnswer({ questionId, by: fixture.olu.id, answer: { text: { approve: "yes" } } })).toMatchObject({ status: "answered" });
  });

  it("leaves an old assignee who is in a candidate group able to answer through the group", async () => {
    fixture = await createTeamFixture(kind);
    const { questionId } = await fixture.ask([fixture.femi.id, { group: "finance" }]);
    const [question] = await fixture.runtime.questionsFor(fixture.femi.id);
    await fixture.runtime.reassignSlot({ slotId: question!.slot!.id, to: fixture.olu.id, by: fixture.fatima.id });

    expect((await fixture.runtime.questionsFor(fixture.femi.id)).map((each) => each.id)).toEqual([questionId]);
  });
});
