import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { setUserAway } from "@/db/queries/users";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a flow asking a person who is away (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("gets nothing at once with reason away; the question is closed as such and nobody is left a question", async () => {
    fixture = await createRuntimeFixture(kind);
    await setUserAway(fixture.database.db, fixture.filer.id, true);
    const task = await fixture.startQuestionnaireTask();

    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ status: "failed", input: { nothing: "away" } });
    const [question] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(question).toMatchObject({ status: "nothing", reason: "away", answeredBy: null, slot: { status: "closed", finishedBy: null } });
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toEqual([]);
    const nothing = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "nothing");
    expect(nothing.map((event) => event.data)).toEqual([{ questionId: question!.id, reason: "away", by: null }]);
  });
});
