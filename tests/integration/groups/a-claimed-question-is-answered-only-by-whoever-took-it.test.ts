import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createTeamFixture, group, type TeamFixture } from "./team-fixture";

describe.each(DATABASE_KINDS)("taking a team's question (%s)", (kind) => {
  let fixture: TeamFixture;
  afterEach(async () => fixture?.database.close());

  it("lets only the member who took it answer, and tells the others who has it", async () => {
    fixture = await createTeamFixture(kind);
    const { questionId } = await fixture.ask(group("finance"));
    const [question] = await fixture.runtime.questionsFor(fixture.fatima.id);

    expect(await fixture.runtime.claimSlot({ slotId: question!.slot!.id, by: fixture.fatima.id })).toMatchObject({ status: "claimed" });
    expect(await fixture.runtime.claimSlot({ slotId: question!.slot!.id, by: fixture.femi.id })).toMatchObject({ status: "taken", by: { name: "Fatima Finance" } });
    const refused = await fixture.runtime.submitAnswer({ questionId, by: fixture.femi.id, answer: { text: { approve: "yes" } } });
    expect(refused).toMatchObject({ status: "conflict", message: expect.stringContaining("Fatima Finance took this question") });
    expect(await fixture.runtime.submitAnswer({ questionId, by: fixture.fatima.id, answer: { text: { approve: "no" } } })).toMatchObject({ status: "answered" });
  });

  it("given back, lets any member answer again", async () => {
    fixture = await createTeamFixture(kind);
    const { questionId } = await fixture.ask(group("finance"));
    const [question] = await fixture.runtime.questionsFor(fixture.fatima.id);
    await fixture.runtime.claimSlot({ slotId: question!.slot!.id, by: fixture.fatima.id });

    expect(await fixture.runtime.unclaimSlot({ slotId: question!.slot!.id, by: fixture.femi.id })).toMatchObject({ status: "taken" });
    expect(await fixture.runtime.unclaimSlot({ slotId: question!.slot!.id, by: fixture.fatima.id })).toMatchObject({ status: "unclaimed" });
    expect(await fixture.runtime.submitAnswer({ questionId, by: fixture.femi.id, answer: { text: { approve: "yes" } } })).toMatchObject({ status: "answered" });
  });

  it("goes to exactly one of two members who take it at the same moment", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.ask(group("finance"));
    const [question] = await fixture.runtime.questionsFor(fixture.fatima.id);
    const slotId = question!.slot!.id;

    const outcomes = await Promise.all([fixture.runtime.claimSlot({ slotId, by: fixture.fatima.id }), fixture.runtime.claimSlot({ slotId, by: fixture.femi.id })]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["claimed", "taken"]);
    const claimed = (await fixture.runtime.events(question!.taskId)).filter((event) => event.kind === "slot-claimed");
    expect(claimed).toHaveLength(1);
  });

  it("is refused to someone the question is not for, and on a question with an assignee", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.ask(group("finance"));
    await fixture.ask(fixture.olu.id);
    const [teamQuestion] = await fixture.runtime.questionsFor(fixture.fatima.id);
    const [oluQuestion] = await fixture.runtime.questionsFor(fixture.olu.id);

    expect(await fixture.runtime.claimSlot({ slotId: teamQuestion!.slot!.id, by: fixture.olu.id })).toEqual({ status: "not_open" });
    expect(await fixture.runtime.claimSlot({ slotId: oluQuestion!.slot!.id, by: fixture.olu.id })).toEqual({ status: "not_open" });
  });
});
