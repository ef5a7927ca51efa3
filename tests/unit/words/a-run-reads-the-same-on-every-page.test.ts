import { describe, expect, it } from "vitest";
import { RUN_STATES } from "@/db/queries/runs";
import { RUN_STATE_WORDS, runStateWords } from "@/lib/run-view";

describe("a run's state reads the same on the runs list, its tabs, the run page and a question's page", () => {
  it("a run that failed and can be retried is failed, like the Failed tab counts it, and says it can be retried", () => {
    expect(runStateWords({ runState: "failed", status: "retryable", nothingReason: null })).toEqual({ label: "Failed", note: "can be retried" });
  });

  it("a run whose flow ended because nobody answered ended without an answer, with why — not 'failed' here and 'nothing' there", () => {
    expect(runStateWords({ runState: "nothing", status: "failed", nothingReason: "expired" })).toEqual({ label: "Ended without an answer", note: "Expired" });
  });

  it("a completed run is completed, never 'successfully'", () => {
    expect(runStateWords({ runState: "completed", status: "completed", nothingReason: null })).toEqual({ label: "Completed", note: null });
  });

  it("every state the list filters by has words, and no two share them", () => {
    const words = RUN_STATES.map((state) => RUN_STATE_WORDS[state]);
    expect(words.every((word) => typeof word === "string" && word !== "")).toBe(true);
    expect(new Set(words).size).toBe(RUN_STATES.length);
  });
});
