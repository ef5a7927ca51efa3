import { describe, expect, it } from "vitest";
import { askerOf } from "@/lib/inbox";

const registry = { entry: (workflow: string) => (workflow === "ReviewClaim" ? ({ label: "Expense review" } as never) : undefined) };

describe("a flow asks by the name people know it by", () => {
  it("a flow's question is asked by its workflow's label, not its code name", () => {
    expect(askerOf({ agent: null, workflow: "ReviewClaim" }, undefined, registry)).toEqual({ kind: "workflow", name: "Expense review", label: "Expense review" });
  });

  it("a flow the registry has no label for keeps its name", () => {
    expect(askerOf({ agent: null, workflow: "Unlisted" }, undefined, registry)).toEqual({ kind: "workflow", name: "Unlisted", label: "Unlisted" });
  });

  it("an agent's question is its agent's", () => {
    expect(askerOf({ agent: "Auditor", workflow: "ReviewClaim" }, undefined, registry)).toEqual({ kind: "agent", name: "Auditor", label: "Auditor" });
  });

  it("an agent with a code name is shown by it in words, and keeps the name the API gives", () => {
    expect(askerOf({ agent: "ReleaseChecker", workflow: "DeployApproval" }, undefined, registry)).toEqual({ kind: "agent", name: "ReleaseChecker", label: "Release checker" });
  });
});
