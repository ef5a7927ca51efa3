import { eq } from "drizzle-orm";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { tasks } from "@/lib/registry";
import { answerOf, defineWorkflow, person, type RuntimeChange } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { HOUR, manualClock } from "./clock";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

const Reply = z.object({ reply: z.string().describe("What do you say?") }).meta({ title: "A reply" });

/** How often the flow's answer handler ran. */
let replies = 0;

/**
 * Asks the task's starter, and moves on without the answer when its own one-hour timer runs out:
 * the question's state is left while the question is still open.
 */
const MovesOn = defineWorkflow({
  name: "MovesOn",
  tracks: tasks,
  initial: "Asking",
  events: { Replied: answerOf(Reply), Timer: z.object({}) },
  states: {
    Asking: {
      async enter(run) {
        await person.ask(run, "Replied", { to: run.item.createdBy! });
        return undefined;
      },
      subscribe: { Timer: { candidates: (run) => [run.item.createdBy!], within: { hours: 1 }, unfinished: (run) => run.goto("MovedOn") } },
      on: {
        Replied(run) {
          replies++;
          return run.goto("Done");
        },
        Timer: (run) => run.goto("MovedOn"),
      },
    },
    MovedOn: { terminal: "error", message: "nobody answered before the timer" },
    Done: { terminal: "success" },
  },
});

describe.each(DATABASE_KINDS)("a question whose state is left before it is answered (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("ends with nothing, reason cancelled, in the move that leaves it: out of every inbox, the flow not woken, an answer refused", async () => {
    replies = 0;
    const clock = manualClock();
    const announced: RuntimeChange[] = [];
    fixture = await createRuntimeFixture(kind, { workflows: [MovesOn], now: clock.now, announce: async (_tx, changes) => void announced.push(...changes) });
    const task = await fixture.startTask(MovesOn, "Office plants");
    await fixture.runtime.drain();
    const [asked] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(asked).toMatchObject({ title: "A reply" });

    clock.advance(2 * HOUR);
    // The timer expires and its unfinished branch leaves the state: one job, and nothing more to run after it.
    expect(await fixture.runtime.tick()).toEqual({ expired: 1, escalated: 0, jobs: 1 });
    expect(await fixture.runtime.tick()).toEqual({ expired: 0, escalated: 0, jobs: 0 });

    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("failed");
    const [question] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(question).toMatchObject({ id: asked!.id, status: "nothing", reason: "cancelled", answeredBy: null, slot: { status: "cancelled" } });
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toEqual([]);
    const nothing = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "nothing");
    expect(nothing.map((event) => event.data)).toEqual([{ questionId: asked!.id, reason: "cancelled", by: null }]);
    expect(announced).toContainEqual(expect.objectContaining({ kind: "question-closed", questionId: asked!.id, userIds: [fixture.filer.id] }));

    const late = await fixture.runtime.submitAnswer({ questionId: asked!.id, by: fixture.filer.id, answer: { form: { reply: "Too late?" } } });
    expect(late.status).toBe("conflict");
    expect(await fixture.runtime.tick()).toEqual({ expired: 0, escalated: 0, jobs: 0 });
    expect(replies).toBe(0);
  });
});
