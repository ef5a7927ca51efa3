import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "@/db/client";
import { tasks } from "@/lib/registry";
import { createRuntime, type RegisteredWorkflow } from "@/lib/runtime";

/** Nothing runs before the check: a runtime that starts here never touches its database. */
const NO_DATABASE = {} as Db;

/** A workflow whose Waiting state waits for Approved as `subscription` says, written in plain JavaScript (no types to catch anything). */
function waitingWith(subscription: Record<string, unknown>): RegisteredWorkflow {
  return {
    name: "Budget",
    tracks: tasks,
    initial: "Waiting",
    events: { Approved: z.object({ ok: z.boolean() }) },
    states: {
      Waiting: { subscribe: { Approved: { unfinished: () => undefined, ...subscription } }, on: { Approved: () => undefined } },
      Done: { terminal: "success" },
    },
  } as unknown as RegisteredWorkflow;
}

const start = (workflow: RegisteredWorkflow) => () => createRuntime({ db: NO_DATABASE, workflows: [workflow] });

describe("a runtime starting with a wrong escalation chain", () => {
  it("refuses a chain on a wait without a clock, saying to give it `within`", () => {
    expect(start(waitingWith({ unfinished: undefined, escalate: [{ at: "50%", remind: true }] }))).toThrow(
      /Budget, state Waiting: its Approved wait escalates without a clock; give it `within`/,
    );
  });

  it.each(["0%", "100%", "150%", "half", 50])("refuses a step at %j, asking for a percentage strictly between 0 and 100", (at) => {
    expect(start(waitingWith({ within: { hours: 1 }, escalate: [{ at, remind: true }] }))).toThrow(/escalates at .* \(step 1\); write a percentage of the SLA strictly between 0 and 100/);
  });

  it("refuses a step that does two things, or none", () => {
    expect(start(waitingWith({ within: { hours: 1 }, escalate: [{ at: "50%", remind: true, addGroup: "finance" }] }))).toThrow(/step 1 must do exactly one thing/);
    expect(start(waitingWith({ within: { hours: 1 }, escalate: [{ at: "50%" }] }))).toThrow(/step 1 must do exactly one thing/);
  });

  it("starts with a chain that is right", () => {
    expect(start(waitingWith({ within: { hours: 1 }, escalate: [{ at: "80%", addGroup: "finance" }, { at: "12.5%", remind: true }] }))).not.toThrow();
  });
});
