import { afterEach, describe, expect, it } from "vitest";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { setUserAway } from "@/db/queries/users";
import { users } from "@/db/schema";
import { eq } from "drizzle-orm";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, type RuntimeFixture } from "../runtime/fixture-workflow";

describe.each(DATABASE_KINDS)("an agent's question to someone away (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("is closed with nothing (away) at once when everyone it could go to is away, the agent gets that as its call's result, and nobody's inbox holds it", async () => {
    fixture = await createRuntimeFixture(kind);
    await setUserAway(fixture.database.db, fixture.filer.id, true);
    await setUserAway(fixture.database.db, fixture.colleague.id, true);
    const task = await fixture.startTask();
    await fixture.runtime.drain();

    const [question] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(question).toMatchObject({ reason: "away", slot: { status: "closed", finishedBy: null } });
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toEqual([]);
    expect(await fixture.runtime.questionsFor(fixture.colleague.id)).toEqual([]);
    const resumed = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "resumed");
    expect(resumed.length).toBeGreaterThan(0);
  });

  it("leaves out an away assignee and goes to the candidates who are there", async () => {
    fixture = await createRuntimeFixture(kind);
    await setUserAway(fixture.database.db, fixture.filer.id, true);
    const task = await fixture.startTask();
    await fixture.runtime.drain();

    const [question] = await fixture.runtime.questionsFor(fixture.colleague.id);
    expect(question).toMatchObject({ taskId: task.id, slot: { assigneeId: null } });
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toEqual([]);
  });

  it("goes to the delegate the away person named", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.database.db.update(users).set({ away: true, delegateId: fixture.colleague.id }).where(eq(users.id, fixture.filer.id));
    const task = await fixture.startTask();
    await fixture.runtime.drain();

    const [question] = await fixture.runtime.questionsFor(fixture.colleague.id);
    expect(question).toMatchObject({ taskId: task.id, slot: { assigneeId: fixture.colleague.id, delegatedFrom: fixture.filer.id } });
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toEqual([]);
  });
});
