import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, PayBack, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a run that has ended (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    return { code: (error as AppError).code, message: (error as AppError).message };
  }

  it("is not cancelled: completed, failed or already cancelled, it is a conflict in plain words and nothing changes", async () => {
    fixture = await createRuntimeFixture(kind, { respond: () => ({ text: "Filed." }) });
    const completed = await fixture.startTask(FileTask, "Filed at once");
    await fixture.runtime.drain();
    expect(await refusal(fixture.runtime.cancelRun(FileTask, completed.id, { by: fixture.outsider.id }))).toEqual({
      code: "conflict",
      message: "This run has already completed, so there is nothing to cancel.",
    });

    // A questionnaire with nobody to put it to (the task has no starter) ends failed at once.
    const [unowned] = await fixture.database.db.insert(tasks).values({ workflow: PayBack.name, title: "Nobody's taxi", input: {} }).returning();
    await fixture.runtime.start(PayBack, unowned!);
    await fixture.runtime.drain();
    expect(await refusal(fixture.runtime.cancelRun(PayBack, unowned!.id, { by: fixture.outsider.id }))).toEqual({
      code: "conflict",
      message: "This run has already ended (it failed), so there is nothing to cancel.",
    });

    const waiting = await fixture.startQuestionnaireTask();
    await fixture.runtime.cancelRun(PayBack, waiting.id, { by: fixture.outsider.id });
    expect(await refusal(fixture.runtime.cancelRun(PayBack, waiting.id, { by: fixture.colleague.id }))).toEqual({ code: "conflict", message: "This run was already cancelled." });
    expect((await fixture.runtime.events(waiting.id)).filter((event) => event.kind === "cancelled")).toHaveLength(1);

    expect(await refusal(fixture.runtime.cancelRun(PayBack, "00000000-0000-4000-8000-000000000000", { by: fixture.outsider.id }))).toEqual({ code: "not_found", message: "There is no such run." });
    for (const ended of [completed, unowned!]) expect((await fixture.runtime.events(ended.id)).filter((event) => event.kind === "cancelled")).toEqual([]);
  });
});
