import { sql } from "drizzle-orm";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { tasks } from "@/lib/registry";
import { answerOf, defineWorkflow, person } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

/** Asks someone by a name typed where a user id belongs: a workflow author's slip. */
const AsksByName = defineWorkflow({
  name: "AsksByName",
  tracks: tasks,
  initial: "Asking",
  events: { Replied: answerOf(z.object({ reply: z.string() })) },
  states: {
    Asking: {
      async enter(run) {
        await person.ask(run, "Replied", { to: "priya" });
        return undefined;
      },
      on: { Replied: (run) => run.goto("Done") },
    },
    Done: { terminal: "success" },
  },
});

describe.each(DATABASE_KINDS)("a question put to an id no user has (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("stops the run saying there is no such user, not with a database error", async () => {
    fixture = await createRuntimeFixture(kind, { workflows: [AsksByName] });
    await fixture.startTask(AsksByName, "Office plants");
    await fixture.runtime.drain();
    const [job] = await queryRows<{ last_error: string | null }>(fixture.database.db, sql`select last_error from jobs order by id desc limit 1`);
    expect(job?.last_error).toContain("there is no user priya");
  });
});
