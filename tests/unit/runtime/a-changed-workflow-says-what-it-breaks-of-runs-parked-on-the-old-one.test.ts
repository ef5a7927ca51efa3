import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tasks } from "@/lib/registry";
import { agentAnswered, answerOf, answerOfGivenSchema, changesAffecting, compareDefinitions, describeWorkflow, type WorkflowDescription } from "@/lib/runtime";

type Plain = Parameters<typeof describeWorkflow>[0];

const handler = () => undefined;

const Payback = z.object({
  method: z.enum(["bank_transfer", "payroll"]).describe("How should we pay you back?"),
  note: z.string().optional(),
});

/** The definition runs were parked on: an agent's loop (`Waiting`, answered by `Answered`), then a questionnaire (`Paying`). */
const v1 = {
  events: { Answered: agentAnswered() as z.ZodType, PaidBack: answerOf(Payback) as z.ZodType },
  states: {
    Running: { enter: handler } as Record<string, unknown>,
    Waiting: { subscribe: { Answered: { within: { days: 2 }, unfinished: handler } }, on: { Answered: handler } } as Record<string, unknown>,
    Paying: { label: "Waiting for payment details", enter: handler, on: { PaidBack: handler } } as Record<string, unknown>,
    Done: { terminal: "success" } as Record<string, unknown>,
  },
};

function describe_(definition: { events: Record<string, z.ZodType>; states: Record<string, Record<string, unknown>> }): WorkflowDescription {
  return describeWorkflow({ name: "Expense", tracks: tasks, initial: "Running", ...definition } as unknown as Plain);
}

const before = describe_(v1);

/** v1 with some states and events replaced (undefined removes one). */
function changed(change: { events?: Record<string, z.ZodType | undefined>; states?: Record<string, Record<string, unknown> | undefined> }): WorkflowDescription {
  const events = Object.fromEntries(Object.entries({ ...v1.events, ...change.events }).filter((entry): entry is [string, z.ZodType] => entry[1] !== undefined));
  const states = Object.fromEntries(Object.entries({ ...v1.states, ...change.states }).filter((entry): entry is [string, Record<string, unknown>] => entry[1] !== undefined));
  return describe_({ events, states });
}

const payback = (schema: z.ZodObject) => changed({ events: { PaidBack: answerOf(schema) } });

describe("comparing a workflow's new definition with the one runs are parked on", () => {
  it("finds nothing when nothing changed", () => {
    expect(compareDefinitions(before, describe_(v1))).toEqual([]);
  });

  it("says a state runs are parked in was removed, for runs in that state", () => {
    const changes = compareDefinitions(before, changed({ states: { Waiting: undefined } }));
    expect(changes).toEqual([
      { kind: "state-removed", states: ["Waiting"], change: "the state Waiting was removed", effect: expect.stringMatching(/^nothing can move a run parked there on/) },
    ]);
  });

  it("says a state that now ends the run breaks the runs parked in it", () => {
    const changes = compareDefinitions(before, changed({ states: { Waiting: { terminal: "error" } } }));
    expect(changes).toMatchObject([{ kind: "state-ends", states: ["Waiting"], change: "the state Waiting now ends the run" }]);
  });

  it("says an event a parked run waits for was removed, for the states that wait for it", () => {
    const changes = compareDefinitions(before, changed({ events: { PaidBack: undefined }, states: { Paying: { enter: handler } } }));
    expect(changes).toMatchObject([{ kind: "event-removed", states: ["Paying"], event: "PaidBack", change: "the event PaidBack was removed" }]);
  });

  it("says a state no longer handles an event its parked runs wait for", () => {
    const changes = compareDefinitions(before, changed({ states: { Paying: { enter: handler } } }));
    expect(changes).toMatchObject([{ kind: "handler-removed", states: ["Paying"], event: "PaidBack", change: "the state Paying no longer handles PaidBack" }]);
  });

  it("says a wait's deadline no longer leads anywhere when its unfinished branch was removed", () => {
    const changes = compareDefinitions(before, changed({ states: { Waiting: { subscribe: { Answered: {} }, on: { Answered: handler } } } }));
    expect(changes).toMatchObject([{ kind: "deadline-removed", states: ["Waiting"], event: "Answered" }]);
  });

  it("lets runs carry on when a wait for a person's answer loses its unfinished branch: its handler gets the expiry as nothing", () => {
    const clocked = describe_({ ...v1, states: { ...v1.states, Paying: { subscribe: { PaidBack: { within: { days: 3 }, unfinished: handler } }, on: { PaidBack: handler } } } });
    const after = changed({ states: { Paying: { subscribe: { PaidBack: {} }, on: { PaidBack: handler } } } });
    expect(compareDefinitions(clocked, after)).toEqual([]);
  });

  it("says an event that took a person's answer and now takes a plain payload breaks runs waiting for it", () => {
    const changes = compareDefinitions(before, changed({ events: { PaidBack: Payback } }));
    expect(changes).toMatchObject([{ kind: "event-kind-changed", states: ["Paying"], event: "PaidBack" }]);
  });

  it("says an answer's new required field breaks runs waiting for that answer, naming the field", () => {
    const changes = compareDefinitions(before, payback(Payback.extend({ iban: z.string() })));
    expect(changes).toEqual([
      {
        kind: "schema-narrowed",
        states: ["Paying"],
        event: "PaidBack",
        field: "iban",
        detail: "is new and required: questions already asked do not ask for it",
        change: 'the answer to PaidBack: the field "iban" is new and required: questions already asked do not ask for it',
        effect: expect.stringMatching(/^the question the run waits on, already asked, is judged by the new schema/),
      },
    ]);
  });

  it("says a choice an answer no longer takes", () => {
    const changes = compareDefinitions(before, payback(Payback.extend({ method: z.enum(["bank_transfer"]) })));
    expect(changes.map((change) => change.change)).toEqual(['the answer to PaidBack: the field "method" no longer takes "payroll"']);
  });

  it("says a narrowed plain payload breaks runs waiting for it", () => {
    const changes = compareDefinitions(before, changed({ events: { Answered: z.object({ text: z.string().min(10), questionId: z.uuid().optional() }) } }));
    expect(changes).toMatchObject([{ kind: "schema-narrowed", states: ["Waiting"], event: "Answered", field: "text", change: 'the payload of Answered: the field "text" must now be at least 10 characters long' }]);
  });

  it("lets runs carry on over a new state, a new event and a new optional field", () => {
    const after = changed({
      events: { Escalated: z.object({ by: z.string() }), PaidBack: answerOf(Payback.extend({ iban: z.string().optional() })) },
      states: { Escalating: { on: { Escalated: handler } } },
    });
    expect(compareDefinitions(before, after)).toEqual([]);
  });

  it("lets runs carry on over a choice added and a bound widened", () => {
    const before2 = describe_({ ...v1, events: { ...v1.events, PaidBack: answerOf(Payback.extend({ nights: z.int().min(1).max(5) })) } });
    const after = payback(Payback.extend({ method: z.enum(["bank_transfer", "payroll", "cash"]), nights: z.int().min(0).max(10) }));
    expect(compareDefinitions(before2, after)).toEqual([]);
  });

  it("lets runs carry on over a new label, a question's new words and a state's new code", () => {
    const after = changed({
      events: { PaidBack: answerOf(Payback.extend({ method: z.enum(["bank_transfer", "payroll"]).describe("How would you like your money?") })) },
      states: { Paying: { label: "Asking how to pay", enter: () => "other code", on: { PaidBack: () => "other code" } } },
    });
    expect(compareDefinitions(before, after)).toEqual([]);
  });

  it("lets runs carry on when a removed state is one no run can be parked in (a terminal one)", () => {
    const after = changed({ states: { Done: undefined, Finished: { terminal: "success" } } });
    expect(compareDefinitions(before, after)).toEqual([]);
  });

  it("lets runs carry on when an answer the code judged comes to be judged by the schema each ask carries", () => {
    const given = describe_({ ...v1, events: { ...v1.events, PaidBack: answerOfGivenSchema() } });
    expect(compareDefinitions(given, before)).toEqual([]);
  });

  it("says an answer the code judged that is now judged by a schema each ask carries breaks runs waiting for it", () => {
    const changes = compareDefinitions(before, changed({ events: { PaidBack: answerOfGivenSchema() } }));
    expect(changes.map((change) => change.change)).toEqual(["the answer to PaidBack is now judged by a schema each ask carries, which questions already asked do not have"]);
  });

  it("keeps only the changes of a run's state, and of the events its open waits take when they are known", () => {
    const changes = compareDefinitions(before, changed({ events: { Answered: z.object({ text: z.string().min(10), questionId: z.uuid().optional() }) }, states: { Paying: { enter: handler } } }));
    expect(changesAffecting(changes, { state: "Waiting" }).map((change) => change.kind)).toEqual(["schema-narrowed"]);
    expect(changesAffecting(changes, { state: "Paying" }).map((change) => change.kind)).toEqual(["handler-removed"]);
    expect(changesAffecting(changes, { state: "Paying", events: ["Other"] })).toEqual([]);
    expect(changesAffecting(changes, { state: "Running" })).toEqual([]);
  });
});
