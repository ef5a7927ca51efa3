import { describe, it } from "vitest";
import { z } from "zod";
import { tasks } from "@/lib/registry";
import { defineWorkflow, type Escalation } from "@/lib/runtime";

describe("an escalation chain's types", () => {
  it("takes steps at a percentage that remind or add a group, on a wait with a clock", () => {
    const chain: Escalation = [
      { at: "50%", remind: true },
      { at: "80%", addGroup: "finance" },
    ];
    defineWorkflow({
      name: "Budget",
      tracks: tasks,
      initial: "Waiting",
      events: { Approved: z.object({ ok: z.boolean() }) },
      states: {
        Waiting: { subscribe: { Approved: { within: { hours: 2 }, escalate: chain, unfinished: (run) => run.goto("Done") } }, on: { Approved: (run) => run.goto("Done") } },
        Done: { terminal: "success" },
      },
    });
  });

  it("refuses a step that is not a percentage, or does two things", () => {
    // @ts-expect-error `at` is a percentage, "<number>%"
    const late: Escalation = [{ at: "tomorrow", remind: true }];
    // @ts-expect-error a step reminds or adds a group, not both
    const both: Escalation = [{ at: "50%", remind: true, addGroup: "finance" }];
    void late;
    void both;
  });

  it("refuses a chain on a wait without a clock", () => {
    defineWorkflow({
      name: "Budget",
      tracks: tasks,
      initial: "Waiting",
      events: { Approved: z.object({ ok: z.boolean() }) },
      states: {
        Waiting: {
          // @ts-expect-error escalate needs `within` (and so `unfinished`)
          subscribe: { Approved: { escalate: [{ at: "50%", remind: true }] } },
          on: { Approved: (run) => run.goto("Done") },
        },
        Done: { terminal: "success" },
      },
    });
  });
});
