import { afterEach, describe, expect, it } from "vitest";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { AppError } from "@/lib/errors";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, PayBack, type RuntimeFixture } from "./fixture-workflow";

const ROUNDS = 10;

describe.each(DATABASE_KINDS)("cancelling a run at the same moment as something else (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("two operators cancelling at once: one cancels, the other is told it was already cancelled, one cancelled event", async () => {
    fixture = await createRuntimeFixture(kind);
    for (let round = 0; round < ROUNDS; round++) {
      const task = await fixture.startQuestionnaireTask();
      const outcomes = await Promise.allSettled([
        fixture.runtime.cancelRun(PayBack, task.id, { by: fixture.outsider.id }),
        fixture.runtime.cancelRun(PayBack, task.id, { by: fixture.colleague.id }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      const [refused] = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      expect(refused?.reason).toBeInstanceOf(AppError);
      expect((refused?.reason as AppError).code).toBe("conflict");
      const events = await fixture.runtime.events(task.id);
      expect(events.filter((event) => event.kind === "cancelled")).toHaveLength(1);
      expect(events.filter((event) => event.kind === "nothing")).toHaveLength(1);
    }
  });

  it("a cancel and an answer at once: the question ends one way only — answered, or withdrawn and the answer refused — and the flow never carries on", async () => {
    fixture = await createRuntimeFixture(kind);
    for (let round = 0; round < ROUNDS; round++) {
      const task = await fixture.startQuestionnaireTask();
      const [asked] = await fixture.runtime.questionsFor(fixture.filer.id);
      const [cancel, answer] = await Promise.allSettled([
        fixture.runtime.cancelRun(PayBack, task.id, { by: fixture.outsider.id }),
        fixture.runtime.submitAnswer({ questionId: asked!.id, by: fixture.filer.id, answer: { form: { method: "payroll", urgent: "no", attendees: "Fay" } } }),
      ]);
      // The run is cancelled either way: an answer taken first does not end a run that is still waiting on its handler.
      expect(cancel.status).toBe("fulfilled");
      expect(answer.status).toBe("fulfilled");
      const submitted = (answer as PromiseFulfilledResult<Awaited<ReturnType<RuntimeFixture["runtime"]["submitAnswer"]>>>).value;
      const [question] = await listQuestionsForTask(fixture.database.db, task.id);
      if (submitted.status === "answered") {
        expect(question).toMatchObject({ status: "answered", reason: null, answeredBy: fixture.filer.id, slot: { status: "finished" } });
        expect((cancel as PromiseFulfilledResult<{ withdrawn: string[] }>).value.withdrawn).toEqual([]);
      } else {
        expect(submitted.status).toBe("conflict");
        expect(question).toMatchObject({ status: "nothing", reason: "cancelled", answeredBy: null, slot: { status: "cancelled" } });
      }
      // The answer's job, if it was queued, was dropped with the run: PayBack's handler never runs.
      expect(await fixture.runtime.drain()).toBe(0);
      const events = await fixture.runtime.events(task.id);
      expect(events.filter((event) => event.kind === "cancelled")).toHaveLength(1);
      expect(events.filter((event) => event.kind === "state-entered").map((event) => event.data.state)).toEqual(["Asking"]);
    }
  });
});
