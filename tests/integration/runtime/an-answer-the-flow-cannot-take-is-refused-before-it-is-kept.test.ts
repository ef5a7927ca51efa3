import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { tasks } from "@/lib/registry";
import { defineWorkflow, turn } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { askReply, countRows } from "./agents";
import { Clerk, createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

/**
 * The Clerk asks, and the run waits for its answer through an event whose schema is not the
 * runtime's agent-answer shape (`{ text, questionId }`): no answer to the ask can be taken by it.
 */
const Misfiled = defineWorkflow({
  name: "Misfiled",
  tracks: tasks,
  agents: { Clerk },
  initial: "Running",
  events: { Replied: z.object({ reply: z.string() }) },
  states: {
    Running: {
      async enter(run) {
        const reply = await Clerk.ask(run.item, [turn.user("File this.")]);
        return reply.parked ? run.goto("Waiting") : run.goto("Completed");
      },
    },
    Waiting: {
      subscribe: { Replied: { assignee: (run) => run.item.createdBy } },
      on: { Replied: (run) => run.goto("Completed") },
    },
    Completed: { terminal: "success" },
  },
});

describe.each(DATABASE_KINDS)("an answer the workflow cannot take (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("is refused before it is kept: the person is not told answered, and nothing is committed", async () => {
    fixture = await createRuntimeFixture(kind, { workflows: [Misfiled, FileTask], respond: () => askReply("Which project is this for?") });
    await fixture.startTask(Misfiled);
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(question).toMatchObject({ status: "open", event: "Replied" });

    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { text: { answer: "Lisbon renewal" } } });
    expect(result).toMatchObject({ status: "definition_error", message: expect.stringMatching(/^Your answer was not sent: the workflow Misfiled is wrong — its Replied event does not take this answer/) });

    const { db } = fixture.database;
    expect(await countRows(db, "slots", "status = 'open'")).toBe(1);
    expect(await countRows(db, "asks", "status = 'open' and answered_by is null and attempts_used = 0")).toBe(1);
    expect(await countRows(db, "jobs", "kind = 'event'")).toBe(0);
    expect(await countRows(db, "run_events", "kind = 'answered'")).toBe(0);
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toMatchObject([{ id: question!.id, status: "open" }]);
  });
});
