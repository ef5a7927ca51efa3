import { describe, expect, it } from "vitest";
import { closedWithoutAnswerText } from "@/lib/question-view";

describe("the words for a question that closed without an answer", () => {
  it("say the run was cancelled when an operator cancelled its run, and the reason's words otherwise", () => {
    expect(closedWithoutAnswerText("cancelled", "cancelled", "it is no longer open")).toBe("Withdrawn: the run was cancelled; this question was withdrawn.");
    // Withdrawn by whoever asked (an API caller, a flow moving on), the run itself not cancelled.
    expect(closedWithoutAnswerText("cancelled", "completed", "it is no longer open")).toBe("This question closed without an answer: whoever asked withdrew the question.");
    expect(closedWithoutAnswerText("expired", "cancelled", "it is no longer open")).toBe("This question closed without an answer: nobody answered before the deadline.");
    expect(closedWithoutAnswerText(null, undefined, "it is no longer open")).toBe("This question closed without an answer: it is no longer open.");
  });
});
