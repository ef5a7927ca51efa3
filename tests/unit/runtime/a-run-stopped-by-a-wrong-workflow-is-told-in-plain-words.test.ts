import { describe, expect, it } from "vitest";
import { definitionFailureIn as definitionFailure, definitionFailureMessage } from "@/lib/runtime";

/** A `failed` run event as the runtime records it. */
function failed(code: string | null, retryable: boolean, cause = "the run failed") {
  return { kind: "failed", data: { state: "Waiting", cause, ...(code === null ? {} : { code }), retryable } };
}

describe("a run stopped by a wrong workflow", () => {
  it("is told as the workflow being wrong, what is wrong, and to start a new run", () => {
    expect(definitionFailureMessage("Intake", "its state Waiting has no handler for Filed.")).toBe(
      "This run stopped because the workflow Intake is wrong: its state Waiting has no handler for Filed. Fix the workflow and start a new run; retrying this one would fail the same way.",
    );
  });

  it("is found from its last failure when that is a definition error, not retryable", () => {
    const entries = [failed("model_unavailable", true), failed("definition_error", false, "its state Waiting has no handler for Filed")];
    expect(definitionFailure(entries)).toEqual({ cause: "its state Waiting has no handler for Filed" });
  });

  it("is not a run that failed on a model error, nor one that ended in its own error state", () => {
    expect(definitionFailure([failed("model_unavailable", true)])).toBeUndefined();
    expect(definitionFailure([failed(null, false, "the review could not be completed")])).toBeUndefined();
    expect(definitionFailure([failed("definition_error", false), failed("model_unavailable", true)])).toBeUndefined();
  });
});
