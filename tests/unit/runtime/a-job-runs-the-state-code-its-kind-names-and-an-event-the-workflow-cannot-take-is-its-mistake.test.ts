import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerOf, type RunHandle, type TrackedTable } from "@/lib/runtime";
import type { AnyWorkflow } from "@/lib/runtime/types";
import { callHandler } from "@/lib/runtime/run-job";

const Filed = z.object({ reference: z.string() });
const Refund = answerOf(z.object({ iban: z.string() }));

/** A workflow as the runtime sees it, whose handlers say what they were given. */
const workflow: AnyWorkflow = {
  name: "FileTask",
  tracks: {} as TrackedTable,
  initial: "Running",
  events: { Filed, Refund },
  states: {
    Running: { enter: (run) => run.goto("Waiting") },
    Waiting: {
      subscribe: { Filed: { within: { days: 1 }, unfinished: (run) => run.goto("Expired") }, Refund: {} },
      on: {
        Filed: (run, payload) => run.goto(`Filed ${(payload as { reference: string }).reference}`),
        Refund: (run, answer) => run.goto(`Refund ${JSON.stringify(answer)}`),
      },
    },
    Quiet: { subscribe: { Filed: {} } },
  },
};

function run(state: string): RunHandle<string, unknown> {
  return { item: null, taskId: "task-1", workflow: "FileTask", state, db: {} as RunHandle<string, unknown>["db"], now: new Date(0), events: workflow.events, goto: (to) => ({ kind: "goto", to }) };
}

const job = (kind: "enter" | "event" | "expire", state: string, payload: unknown = null) => ({ kind, state, payload });

describe("a job's state code", () => {
  it("is the state's enter body for an enter job", async () => {
    expect(await callHandler(workflow, job("enter", "Running"), run("Running"))).toEqual({ kind: "goto", to: "Waiting" });
  });

  it("is the event's handler, given the payload as its schema reads it", async () => {
    const payload = { event: "Filed", payload: { reference: "F-1" } };
    expect(await callHandler(workflow, job("event", "Waiting", payload), run("Waiting"))).toEqual({ kind: "goto", to: "Filed F-1" });
  });

  it("is the wait's unfinished branch when its clock ran out; a questionnaire's handler gets nothing, reason expired", async () => {
    expect(await callHandler(workflow, job("expire", "Waiting", { event: "Filed" }), run("Waiting"))).toEqual({ kind: "goto", to: "Expired" });
    expect(await callHandler(workflow, job("expire", "Waiting", { event: "Refund" }), run("Waiting"))).toEqual({
      kind: "goto",
      to: `Refund ${JSON.stringify({ ok: false, reason: "expired" })}`,
    });
    expect(await callHandler(workflow, job("expire", "Quiet", { event: "Filed" }), run("Quiet"))).toBeUndefined();
  });
});

describe("a job the workflow cannot take", () => {
  const wrong = async (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as { code?: string; message: string });

  it("is a definition error when the run is in a state the workflow no longer declares", async () => {
    const error = await wrong(callHandler(workflow, job("enter", "Gone"), run("Gone")));
    expect(error).toMatchObject({ code: "definition_error", message: 'the run is in the state "Gone", which it no longer declares' });
  });

  it("is a definition error when the event is not declared, has no handler, or its payload does not match the schema", async () => {
    expect(await wrong(callHandler(workflow, job("event", "Waiting", { event: "Shipped" }), run("Waiting")))).toMatchObject({
      code: "definition_error",
      message: expect.stringContaining('received the event "Shipped", which it does not declare'),
    });
    expect(await wrong(callHandler(workflow, job("event", "Quiet", { event: "Filed", payload: { reference: "F-1" } }), run("Quiet")))).toMatchObject({
      code: "definition_error",
      message: expect.stringContaining("has no `on: { Filed(run, payload) }` handler"),
    });
    expect(await wrong(callHandler(workflow, job("event", "Waiting", { event: "Filed", payload: { reference: 7 } }), run("Waiting")))).toMatchObject({
      code: "definition_error",
      message: expect.stringMatching(/received a Filed that does not match the event's schema \(reference: /),
    });
  });
});
