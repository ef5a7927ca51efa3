import { afterEach, describe, expect, it } from "vitest";
import { listSlotsForTask } from "@/db/queries/runtime-slots";
import type { RuntimeChange } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("reassigning an open slot (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("moves it to the new assignee in one update, records who did it and tells both people", async () => {
    const announced: RuntimeChange[] = [];
    fixture = await createExampleFixture(kind, { announce: async (_tx, changes) => void announced.push(...changes) });
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    expect(slot).toMatchObject({ status: "open", assigneeId: fixture.sam.id });
    announced.length = 0;

    const result = await fixture.runtime.reassignSlot({ slotId: slot!.id, to: fixture.priya.id, by: fixture.omar.id });
    expect(result).toMatchObject({ status: "reassigned", from: fixture.sam.id, to: fixture.priya.id, taskId: task.id });

    const [moved] = await listSlotsForTask(fixture.database.db, task.id);
    expect(moved).toMatchObject({ status: "open", assigneeId: fixture.priya.id });
    expect(moved!.candidateIds).toContain(fixture.priya.id);
    expect(announced).toEqual([{ kind: "slot-reassigned", taskId: task.id, slotId: slot!.id, userIds: [fixture.sam.id, fixture.priya.id] }]);

    const events = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "slot-reassigned");
    expect(events.map((event) => event.data)).toEqual([{ slotId: slot!.id, from: fixture.sam.id, to: fixture.priya.id, by: fixture.omar.id }]);

    // Priya's inbox now has it as hers; Sam's no longer does.
    const [priyaQuestion] = await fixture.runtime.questionsFor(fixture.priya.id);
    expect(priyaQuestion?.slot?.assigneeId).toBe(fixture.priya.id);
    const samQuestions = await fixture.runtime.questionsFor(fixture.sam.id);
    expect(samQuestions.filter((question) => question.slot?.assigneeId === fixture.sam.id)).toEqual([]);
  });

  it("adds someone who was not a candidate, who may then answer", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    expect(slot!.candidateIds).not.toContain(fixture.omar.id);
    await fixture.runtime.reassignSlot({ slotId: slot!.id, to: fixture.omar.id, by: fixture.sam.id });
    const [moved] = await listSlotsForTask(fixture.database.db, task.id);
    expect(moved!.candidateIds.filter((id) => id === fixture.omar.id)).toHaveLength(1);
    expect((await fixture.runtime.questionsFor(fixture.omar.id)).map((question) => question.slot?.id)).toEqual([slot!.id]);
  });

  it("leaves a slot that is no longer open alone", async () => {
    const announced: RuntimeChange[] = [];
    fixture = await createExampleFixture(kind, { announce: async (_tx, changes) => void announced.push(...changes) });
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const answered = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: { form: { answer: "Client dinner with Acme." } } });
    expect(answered.status).toBe("answered");
    announced.length = 0;

    const result = await fixture.runtime.reassignSlot({ slotId: question!.slot!.id, to: fixture.priya.id, by: fixture.omar.id });
    expect(result).toEqual({ status: "not_open" });
    expect(announced).toEqual([]);
    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    expect(slot).toMatchObject({ status: "finished", assigneeId: fixture.sam.id });
    expect((await fixture.runtime.events(task.id)).filter((event) => event.kind === "slot-reassigned")).toEqual([]);
  });
});
