import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tasks } from "@/lib/registry";
import { agentAnswered, answerOf, answerOfGivenSchema, canonicalJson, describeWorkflow, fingerprintOf, schemaDescription, workflowDefinition } from "@/lib/runtime";

type Plain = Parameters<typeof describeWorkflow>[0];

/** A workflow as plain JavaScript writes it (describing it reads its shape, never runs it). */
function plain(workflow: { name?: string; initial?: string; events?: Record<string, z.ZodType>; states: Record<string, unknown> }): Plain {
  return { name: "Expense", tracks: tasks, initial: "Review", events: {}, ...workflow } as unknown as Plain;
}

const Decision = z.object({ approve: z.boolean().describe("Approve it?"), note: z.string().optional() });

const reviewStates = {
  Review: {
    label: "Waiting for the approver",
    enter: () => undefined,
    on: { Decided: () => undefined },
  },
  Filing: { subscribe: { Filed: { within: { days: 1 }, unfinished: () => undefined } }, on: { Filed: () => undefined } },
  Done: { terminal: "success" },
};

describe("a workflow definition as data", () => {
  it("names each state with its label, whether it ends the run, runs code on entering, and what it waits for and handles", () => {
    const description = describeWorkflow(plain({ events: { Decided: answerOf(Decision), Filed: agentAnswered() }, states: reviewStates }));
    expect(description.states).toEqual({
      Review: { label: "Waiting for the approver", enter: true, handles: ["Decided"] },
      Filing: { waits: { Filed: { deadline: true } }, handles: ["Filed"] },
      Done: { terminal: "success" },
    });
    expect(description).toMatchObject({ format: 1, workflow: "Expense", initial: "Review" });
  });

  it("describes a person's answer by its questionnaire's JSON Schema, the input side", () => {
    const description = describeWorkflow(plain({ events: { Decided: answerOf(Decision) }, states: reviewStates }));
    expect(description.events.Decided).toEqual({
      kind: "answer",
      schema: {
        type: "object",
        properties: { approve: { type: "boolean", description: "Approve it?" }, note: { type: "string" } },
        required: ["approve"],
      },
    });
  });

  it("describes a plain event by its payload's JSON Schema", () => {
    const description = describeWorkflow(plain({ events: { Filed: agentAnswered() }, states: reviewStates }));
    expect(description.events.Filed).toMatchObject({ kind: "event", schema: { type: "object", required: ["text"] } });
  });

  it("describes an answer whose schema comes with each ask as given", () => {
    const description = describeWorkflow(plain({ events: { Answered: answerOfGivenSchema() }, states: reviewStates }));
    expect(description.events.Answered).toEqual({ kind: "answer", schema: "given" });
  });

  it("marks a schema with a check in code, which JSON Schema cannot say", () => {
    expect(schemaDescription(z.string().refine((text) => text !== "no"))).toEqual({ type: "string", "x-parley-refined": true });
  });

  it("marks a type JSON Schema cannot describe instead of failing", () => {
    expect(schemaDescription(z.object({ when: z.date() }))).toMatchObject({ properties: { when: { "x-parley-unreadable": expect.stringMatching(/Date/) } } });
  });

  it("has the same fingerprint whatever order its states, events and fields were written in", () => {
    const one = plain({ events: { Decided: answerOf(Decision), Filed: agentAnswered() }, states: reviewStates });
    const other = plain({
      events: { Filed: agentAnswered(), Decided: answerOf(z.object({ note: z.string().optional(), approve: z.boolean().describe("Approve it?") })) },
      states: { Done: reviewStates.Done, Filing: reviewStates.Filing, Review: reviewStates.Review },
    });
    expect(fingerprintOf(describeWorkflow(one))).toBe(fingerprintOf(describeWorkflow(other)));
  });

  it("has another fingerprint when anything it describes changes, a label included", () => {
    const before = describeWorkflow(plain({ events: { Decided: answerOf(Decision) }, states: reviewStates }));
    const after = describeWorkflow(plain({ events: { Decided: answerOf(Decision) }, states: { ...reviewStates, Review: { ...reviewStates.Review, label: "With the approver" } } }));
    expect(fingerprintOf(after)).not.toBe(fingerprintOf(before));
  });

  it("is a SHA-256 of its canonical JSON, in hex", () => {
    const description = describeWorkflow(plain({ states: { Review: { terminal: "success" } } }));
    expect(fingerprintOf(description)).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe('{"a":{"d":[2,{"e":0,"f":1}]},"b":1}');
  });

  it("is worked out once per workflow in a process", () => {
    const workflow = plain({ states: { Review: { terminal: "success" } } });
    expect(workflowDefinition(workflow)).toBe(workflowDefinition(workflow));
  });
});
