import { describe, expect, it } from "vitest";
import { z } from "zod";

import { describeAnswer, specFromSchema } from "@/lib/questions";

const Reimbursement = z.object({
  method: z.enum(["bank_transfer", "payroll"]).meta({ title: "How to pay it back" }).describe("Method"),
  urgent: z.boolean().describe("Urgent?"),
  note: z.string().optional().describe("Anything else?"),
  currency: z.string().nullable().describe("Currency"),
  attendees: z.array(z.string()).describe("Who attended?"),
});

describe("an answer reads back in the words it was chosen in", () => {
  it("names a choice by its title, a yes-or-no in words, a skipped question, none and a list", () => {
    const spec = specFromSchema(Reimbursement);
    const method = spec.fields.find((field) => field.path === "method");
    const label = method?.options?.find((option) => option.value === "bank_transfer")?.label;
    expect(label).not.toBe("bank_transfer");
    expect(describeAnswer(spec, { method: "bank_transfer", urgent: false, currency: null, attendees: ["Ana", "Rui"] })).toEqual([
      { path: "method", question: "Method", answer: label },
      { path: "urgent", question: "Urgent?", answer: "No" },
      { path: "note", question: "Anything else?", answer: "(skipped)" },
      { path: "currency", question: "Currency", answer: "None" },
      { path: "attendees", question: "Who attended?", answer: "Ana, Rui" },
    ]);
  });

  it("reads an agent's question answered in words as that text", () => {
    const spec = specFromSchema(z.object({ answer: z.string().describe("What was the charge for?") }));
    expect(describeAnswer(spec, { text: "Team dinner", questionId: "q" })).toEqual([{ path: "answer", question: "What was the charge for?", answer: "Team dinner" }]);
  });

  it("reads nothing for a question with no answer", () => {
    expect(describeAnswer(specFromSchema(Reimbursement), null)).toEqual([]);
  });
});
