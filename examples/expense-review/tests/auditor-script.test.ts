import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { auditorScript } from "../auditor-script";
import { parseDecision } from "../claim-brief";

function brief(amount: string, description: string) {
  return `Review this claim.\nTitle: Dinner\nMerchant: Ramiro\nAmount: ${amount}\nDate: 2026-11-03\nDescription: ${description}`;
}

function conversation(claim: string, answers: string[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: claim }] }];
  answers.forEach((answer, index) => {
    prompt.push(
      { role: "assistant", content: [{ type: "tool-call", toolCallId: `c${index}`, toolName: "ask", input: {} }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: `c${index}`, toolName: "ask", output: { type: "text", value: answer } }] },
    );
  });
  return prompt;
}

function decisionOf(reply: ReturnType<typeof auditorScript>) {
  return "text" in reply && reply.text ? parseDecision(reply.text) : undefined;
}

describe("the scripted Auditor", () => {
  it("asks about a charge the record can't explain", () => {
    const reply = auditorScript(conversation(brief("482.50 EUR", "Dinner."), []));
    expect(reply).toMatchObject({ toolCalls: [{ toolName: "ask", input: { question: expect.stringContaining("482.50 EUR charge at Ramiro") } }] });
  });

  it("approves a small charge its description explains, without asking", () => {
    const reply = auditorScript(conversation(brief("24.00 USD", "Team lunch with the two new hires on their first day"), []));
    expect(decisionOf(reply)?.decision).toBe("approved");
  });

  it("asks once more when the answer is too thin", () => {
    const reply = auditorScript(conversation(brief("482.50 EUR", "Dinner."), ["Food."]));
    expect(reply).toMatchObject({ toolCalls: [{ toolName: "ask", input: { options: expect.any(Array) } }] });
  });

  it("approves with the reason it was given", () => {
    const reply = auditorScript(conversation(brief("482.50 EUR", "Dinner."), ["Client dinner with Acme to close the renewal."]));
    expect(decisionOf(reply)).toEqual({ decision: "approved", reason: expect.stringContaining("close the renewal") });
  });

  it("rejects a charge the filer says was personal", () => {
    const reply = auditorScript(conversation(brief("482.50 EUR", "Dinner."), ["Food.", "Personal — I'll repay it"]));
    expect(decisionOf(reply)?.decision).toBe("rejected");
  });

  it("rejects when even the second answer explains nothing", () => {
    const reply = auditorScript(conversation(brief("482.50 EUR", "Dinner."), ["Food.", "Dinner."]));
    expect(decisionOf(reply)).toEqual({ decision: "rejected", reason: expect.stringContaining("Nobody explained") });
  });
});
