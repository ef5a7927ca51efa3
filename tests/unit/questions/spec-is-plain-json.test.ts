import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";
import type { QuestionSpec } from "@/lib/questions/question-spec";
import { specFromSchema } from "@/lib/questions/spec-from-schema";

describe("the spec is plain JSON, stored and sent as it is", () => {
  it("survives a JSON round trip unchanged", () => {
    const schema = z
      .object({
        method: z.enum(["bank", "payroll"]).describe("How should we pay you back?"),
        when: z.date().default(new Date("2025-01-02T00:00:00Z")),
        amount: z.number().positive().multipleOf(0.01),
        notes: z.array(z.string()).optional(),
        address: z.object({ city: z.string().max(80) }).describe("Address"),
      })
      .refine(() => true);
    const spec = specFromSchema(schema);
    expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
  });

  it("records that the schema has checks across several fields", () => {
    const spec = specFromSchema(z.object({ a: z.string(), b: z.string() }).refine((value) => value.a !== value.b));
    expect(spec.crossFieldChecks).toBe(true);
  });

  it("reads answers through a spec loaded back from storage exactly as through a fresh one", () => {
    const spec = specFromSchema(z.object({ method: z.enum(["bank", "payroll"]), when: z.date(), amount: z.number() }));
    const stored = JSON.parse(JSON.stringify(spec)) as QuestionSpec;
    const answers = ["2", "2025-03-14", "12.5"];
    expect(stored.fields.map((field, index) => parseTextAnswer(field, answers[index]))).toEqual(spec.fields.map((field, index) => parseTextAnswer(field, answers[index])));
  });

  it("refuses, rather than crashes on, a stored field of a kind this code does not know", () => {
    const [field] = specFromSchema(z.object({ a: z.string() })).fields;
    expect(field && parseTextAnswer({ ...field, kind: "colour" as never }, "red")).toEqual({ ok: false, message: "This question cannot be answered here." });
  });
});
