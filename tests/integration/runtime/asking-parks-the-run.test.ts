import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { turn } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { askReply, countRows, loopAgent, newTask, storedMessages } from "./agents";
import { Clerk, createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("asking parks the run (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("stores the ask call with no result, stops, and the task reads waiting", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();

    const messages = await storedMessages(fixture.database.db, Clerk.name, task.id);
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(messages[1]?.message).toMatchObject({ role: "assistant", content: [{ type: "tool-call", toolName: "ask" }] });
    expect(await countRows(fixture.database.db, "jobs", "status in ('queued', 'running')")).toBe(0);
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("waiting");
  });

  it("replies parked with the question and its options in the agent's own words", async () => {
    fixture = await createRuntimeFixture(kind);
    const { agent } = loopAgent(() => askReply("Which cost centre pays for the Lisbon dinner?", ["Sales", "Engineering"]));
    const reply = await fixture.runtime.ask(agent, newTask(), [turn.user("File the Lisbon dinner.")]);
    expect(reply).toMatchObject({
      parked: true,
      question: { agent: "Clerk", text: "Which cost centre pays for the Lisbon dinner?", options: ["Sales", "Engineering"] },
    });
  });

  it("carries on after every in-process object is thrown away", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();

    // A new runtime and a new model, as after a restart: only the database remembers.
    const { runtime, model } = fixture.restart();
    await runtime.deposit(FileTask, {
      taskId: task.id,
      event: "Answered",
      payload: { text: "Dinner with the Acme procurement team to close the renewal." },
      by: fixture.filer.id,
    });
    await runtime.drain();

    expect(model.calls).toHaveLength(1);
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    // Filed: the Clerk took the answer and finished without asking again.
    expect(row?.status).toBe("completed");
  });
});
