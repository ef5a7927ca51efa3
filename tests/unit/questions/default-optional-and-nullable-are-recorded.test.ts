import { describe, expect, it } from "vitest";
import { z } from "zod";

import type { QuestionField } from "@/lib/questions/question-spec";
import { specFromSchema } from "@/lib/questions/spec-from-schema";

function only(schema: z.ZodType): QuestionField {
  const [field] = specFromSchema(z.object({ field: schema })).fields;
  if (field === undefined) throw new Error("no field");
  return field;
}

describe("the spec says whether a field has a default, may be skipped, or may be none", () => {
  it("records a default and its value", () => {
    expect(only(z.string().length(3).default("EUR"))).toMatchObject({ hasDefault: true, default: "EUR" });
  });

  it("records a default of false, which is a default all the same", () => {
    expect(only(z.boolean().default(false))).toMatchObject({ hasDefault: true, default: false });
  });

  it("stores a Date default as its ISO day", () => {
    expect(only(z.date().default(new Date("2025-03-14T00:00:00Z"))).default).toBe("2025-03-14");
  });

  it("marks an optional field as optional and not nullable", () => {
    expect(only(z.string().optional())).toMatchObject({ optional: true, nullable: false, hasDefault: false });
  });

  it("marks a nullable field as nullable and not optional", () => {
    expect(only(z.string().nullable())).toMatchObject({ optional: false, nullable: true });
  });

  it("marks a nullish field as both", () => {
    expect(only(z.string().nullish())).toMatchObject({ optional: true, nullable: true });
  });

  it("marks a union with null as nullable", () => {
    expect(only(z.union([z.literal("a"), z.literal("b"), z.null()]))).toMatchObject({ kind: "enum", nullable: true });
  });

  it("treats .nonoptional() as required again", () => {
    expect(only(z.string().optional().nonoptional()).optional).toBe(false);
  });

  it("has no default key at all when there is no default", () => {
    expect("default" in only(z.string())).toBe(false);
  });
});
