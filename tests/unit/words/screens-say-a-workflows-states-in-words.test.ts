import { describe, expect, it } from "vitest";
import { stateWords } from "@/lib/plain-words";

const registry = {
  entry: (workflow: string) =>
    workflow === "ApiAsk" ? ({ workflow: { name: "ApiAsk", states: { Asking: { label: "Waiting for an answer" }, Answered: {} } } } as never) : undefined,
};

describe("screens say a workflow's states in words", () => {
  it("a state its workflow gives a label is said by that label", () => {
    expect(stateWords(registry, "ApiAsk", "Asking")).toBe("Waiting for an answer");
  });

  it("a state without a label is its name in words", () => {
    expect([stateWords(registry, "ApiAsk", "Answered"), stateWords(registry, "ApiAsk", "NotReimbursed")]).toEqual(["Answered", "Not reimbursed"]);
  });

  it("a state of a workflow no longer registered is its name in words", () => {
    expect(stateWords(registry, "Gone", "AwaitingVPApproval")).toBe("Awaiting VP approval");
  });
});
