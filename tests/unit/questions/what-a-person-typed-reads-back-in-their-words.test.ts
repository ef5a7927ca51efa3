import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerToCopy, describeTypedAnswer, specFromSchema } from "@/lib/questions";

const spec = specFromSchema(
  z.object({
    method: z.enum(["bank_transfer", "payroll"]).meta({ description: "How should we pay you back?", enumLabels: { bank_transfer: "Bank transfer", payroll: "With my salary" } } as never),
    note: z.string().optional().describe("Anything to add?"),
    urgent: z.boolean().describe("Urgent?"),
  }),
);

describe("what a person typed into a form that was not taken reads back in their words, to copy", () => {
  it("reads each question they answered, a choice by its title, and leaves out what they left blank", () => {
    const lines = describeTypedAnswer(spec, { method: ["bank_transfer"], note: [""], urgent: ["on"] });
    expect(lines.map((line) => [line.path, line.answer])).toEqual([
      ["method", expect.stringMatching(/bank transfer/i)],
      ["urgent", "Yes"],
    ]);
    expect(answerToCopy(lines)).toMatch(/^How should we pay you back\?: .+\nUrgent\?: Yes$/);
  });

  it("keeps text that cannot be read as it was typed", () => {
    const numbers = specFromSchema(z.object({ amount: z.number().describe("How much?") }));
    expect(answerToCopy(describeTypedAnswer(numbers, { amount: "twelve" }))).toBe("twelve");
  });

  it("nothing typed is nothing to keep", () => {
    expect(describeTypedAnswer(spec, { note: ["  "] })).toEqual([]);
  });
});
