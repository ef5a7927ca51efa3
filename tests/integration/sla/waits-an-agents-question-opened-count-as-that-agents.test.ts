import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { readSlaReport } from "@/db/queries/sla";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { claims, reviewTasks } from "@/examples/expense-review/schema";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { createRuntime, defineAgent, defineWorkflow, turn } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { askReply, toolResults } from "../runtime/agents";
import { HOUR, manualClock } from "../runtime/clock";
import { UNEXPLAINED_CLAIM } from "@/examples/expense-review/tests/fixture";

let filer = "";

const Expenses = defineAgent({
  name: "Expenses",
  prompt: "You review expense claims.",
  memory: "persistent",
  loop: () => AskFiler,
  model: createScriptedModel({ respond: (prompt) => (toolResults(prompt).length === 0 ? askReply("What was the hotel charge for?") : { text: "Filed." }) }),
});

/** The agent asks the filer about a claim; the filer has an hour to answer, else the run ends without it. */
const AskFiler = defineWorkflow({
  name: "AskFiler",
  tracks: reviewTasks,
  agents: { Expenses },
  initial: "Asking",
  events: { Answered: z.object({ text: z.string(), questionId: z.string().optional() }) },
  states: {
    Asking: {
      async enter(run) {
        const reply = await Expenses.ask(run.item, [turn.user("Claim 4711: 482.50 EUR at Hotel Adlon, no description.")]);
        return run.goto(reply.parked ? "Waiting" : "Done");
      },
    },
    Waiting: {
      subscribe: { Answered: { assignee: () => filer, within: { hours: 1 }, unfinished: (run) => run.goto("Done") } },
      on: {
        async Answered(run, { text, questionId }) {
          await Expenses.answer(run.item, text, questionId ? { questionId } : {});
          return run.goto("Done");
        },
      },
    },
    Done: { terminal: "success" },
  },
});

describe.each(DATABASE_KINDS)("the SLA history on %s", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("counts every wait an agent's question opened as that agent's, answered or expired", async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const [person] = await insertUsersIfAbsent(db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    filer = person!.id;
    const clock = manualClock();
    const runtime = createRuntime({ db, workflows: [AskFiler], now: clock.now });
    const started = clock.now();
    for (let index = 0; index < 2; index++) {
      const [claim] = await db.insert(claims).values(UNEXPLAINED_CLAIM).returning();
      const [task] = await db.insert(reviewTasks).values({ claimId: claim!.id }).returning();
      await runtime.start(AskFiler, task!);
    }
    await runtime.drain();

    // Sam answers one question in time; the other runs out.
    const [first] = await runtime.questionsFor(filer);
    clock.advance(HOUR / 2);
    expect(await runtime.submitAnswer({ questionId: first!.id, by: filer, answer: { text: { answer: "Two nights for the Siemens visit." } } })).toMatchObject({ status: "answered" });
    clock.advance(HOUR);
    expect(await runtime.tick()).toEqual({ expired: 1, escalated: 0, jobs: 2 });

    const report = await readSlaReport(db, started, clock.now());
    expect(report.byAgent).toEqual([expect.objectContaining({ key: "Expenses", total: 2, answered: 1, withinSla: 1, breaches: 1 })]);
  });
});
