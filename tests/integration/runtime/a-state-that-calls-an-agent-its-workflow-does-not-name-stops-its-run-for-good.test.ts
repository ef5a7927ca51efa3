import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { defineWorkflow, turn } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { Clerk, createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

/** A workflow whose state code calls the Clerk but whose `agents` do not name it. */
const Unnamed = defineWorkflow({
  name: "Unnamed",
  tracks: tasks,
  initial: "Running",
  states: {
    Running: {
      async enter(run) {
        const reply = await Clerk.ask(run.item, [turn.user("File this.")]);
        return reply.parked ? run.goto("Failed") : run.goto("Done");
      },
    },
    Done: { terminal: "success" },
    Failed: { terminal: "error", message: "the Clerk asked" },
  },
});

describe.each(DATABASE_KINDS)("a state that calls an agent its workflow does not name (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("fails the run as a definition error that names the agent and the fix, before the model is called", async () => {
    fixture = await createRuntimeFixture(kind, { workflows: [Unnamed, FileTask] });
    const task = await fixture.startTask(Unnamed, "Receipts");
    await fixture.runtime.drain();

    const [failed] = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "failed");
    expect(failed?.data).toMatchObject({ code: "definition_error", retryable: false, cause: expect.stringContaining("its state Running calls agent Clerk, which it does not name; add it to `agents: { Clerk }`") });
    expect(fixture.model.calls).toHaveLength(0);
  });
});
