import { describe, expect, it } from "vitest";
import { conversationBeside, specToAnswer, YOUR_ANSWER_LABEL } from "@/lib/question-view";
import { agentAskSpec } from "@/lib/runtime/agent-question";

const QUESTION = "What was the 412.80 USD charge at Luigi's Trattoria for?";

describe("the question page says its question once, in its heading", () => {
  it("the form labels a single question the heading already asks as the person's answer", () => {
    const spec = specToAnswer(agentAskSpec(QUESTION), QUESTION);
    expect(spec.fields.map((field) => field.question)).toEqual([YOUR_ANSWER_LABEL]);
  });

  it("a questionnaire's questions are asked as they are", () => {
    const spec = agentAskSpec("How should we pay you back?");
    expect(specToAnswer(spec, "Reimbursement")).toBe(spec);
  });

  it("the conversation marks where this question was asked instead of saying it a third time", () => {
    const lines = conversationBeside(
      [
        { kind: "instruction", text: "Review this claim." },
        { kind: "question", text: QUESTION, options: [], toolCallId: "call-1" },
      ],
      QUESTION,
    );
    expect(lines[1]).toMatchObject({ kind: "question", current: true });
    expect(lines[0]).not.toHaveProperty("current");
  });
});
