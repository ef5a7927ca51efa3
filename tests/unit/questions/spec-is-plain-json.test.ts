import { describe, expect, it } from "vitest";
import { z } from "zod";

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
});
