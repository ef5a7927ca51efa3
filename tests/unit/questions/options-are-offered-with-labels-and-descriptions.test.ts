import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema } from "@/lib/questions/spec-from-schema";

function options(schema: z.ZodType) {
  return specFromSchema(z.object({ field: schema })).fields[0]?.options;
}

describe("enums and literals are offered as options, in order, with their descriptions", () => {
  it("offers an enum's values in the schema's order", () => {
    expect(options(z.enum(["payroll", "card", "cash"]))?.map((option) => option.value)).toEqual(["payroll", "card", "cash"]);
  });

  it("labels an option by its words, separators read as spaces", () => {
    expect(options(z.enum(["bank_transfer", "card-refund", "EUR"]))?.map((option) => option.label)).toEqual([
      "bank transfer",
      "card refund",
      "EUR",
    ]);
  });

  it("gives each literal option its own .meta({ description }) and .meta({ title })", () => {
    const schema = z.union([
      z.literal("bank").meta({ title: "Bank transfer", description: "Paid within 3 days" }),
      z.literal("payroll").meta({ description: "With your next salary" }),
    ]);
    expect(options(schema)).toEqual([
      { value: "bank", label: "Bank transfer", description: "Paid within 3 days" },
      { value: "payroll", label: "payroll", description: "With your next salary" },
    ]);
  });

  it("offers the values of a native TypeScript-style enum object", () => {
    const Method = { Bank: "bank", Payroll: "payroll" } as const;
    expect(options(z.enum(Method))?.map((option) => option.value)).toEqual(["bank", "payroll"]);
  });

  it("offers numeric literals as numbers", () => {
    expect(options(z.literal([1, 2, 5]))?.map((option) => option.value)).toEqual([1, 2, 5]);
  });

  it("offers the options of a list of enum values", () => {
    expect(options(z.array(z.enum(["a", "b"])))?.map((option) => option.value)).toEqual(["a", "b"]);
  });
});
