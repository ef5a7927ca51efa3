import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { rawFromFormAnswer } from "@/lib/questions/form-answer";
import { specFromSchema } from "@/lib/questions/spec-from-schema";
import { validateAnswer, validateTextAnswers } from "@/lib/questions/validate-answer";

/** A schema described as plain data, so a failing case prints readably. */
type Shape =
  | { leaf: "string"; min?: number; max?: number }
  | { leaf: "number"; min?: number }
  | { leaf: "int" }
  | { leaf: "boolean" }
  | { leaf: "enum"; values: string[] }
  | { leaf: "literals"; values: (string | number)[] }
  | { leaf: "choices"; values: string[] }
  | { leaf: "list" }
  | { leaf: "isoDate" }
  | { leaf: "date" }
  | { object: Record<string, Wrapped>; refine?: "with-path" | "without-path" };

interface Wrapped {
  shape: Shape;
  optional: boolean;
  nullable: boolean;
  withDefault: boolean;
}

const name = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,6}$/);
const words = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 5 });

const leaf: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({ leaf: fc.constant("string" as const), min: fc.option(fc.nat(3), { nil: undefined }), max: fc.option(fc.integer({ min: 3, max: 10 }), { nil: undefined }) }),
  fc.record({ leaf: fc.constant("number" as const), min: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }) }),
  fc.constant({ leaf: "int" as const }),
  fc.constant({ leaf: "boolean" as const }),
  fc.record({ leaf: fc.constant("enum" as const), values: words }),
  fc.record({ leaf: fc.constant("literals" as const), values: fc.uniqueArray(fc.oneof(fc.stringMatching(/^[a-z]{1,4}$/), fc.integer({ min: 0, max: 9 })), { minLength: 1, maxLength: 4 }) }),
  fc.record({ leaf: fc.constant("choices" as const), values: words }),
  fc.constant({ leaf: "list" as const }),
  fc.constant({ leaf: "isoDate" as const }),
  fc.constant({ leaf: "date" as const }),
);

const { root } = fc.letrec<{ root: Shape; shape: Shape; wrapped: Wrapped }>((tie) => ({
  root: fc.record({
    object: fc.dictionary(name, tie("wrapped"), { minKeys: 1, maxKeys: 5 }),
    refine: fc.option(fc.constantFrom("with-path" as const, "without-path" as const), { nil: undefined }),
  }),
  shape: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, leaf, tie("root")),
  wrapped: fc.record({ shape: tie("shape"), optional: fc.boolean(), nullable: fc.boolean(), withDefault: fc.boolean() }),
}));

function build(shape: Shape): z.ZodType {
  if ("object" in shape) {
    const object = z.object(Object.fromEntries(Object.entries(shape.object).map(([key, wrapped]) => [key, wrap(wrapped)])));
    const [first] = Object.keys(shape.object);
    if (shape.refine === "with-path" && first !== undefined) return object.refine((value) => JSON.stringify(value).length % 3 !== 0, { path: [first], message: "Cross-field" });
    if (shape.refine === "without-path") return object.refine((value) => JSON.stringify(value).length % 2 === 0, "Whole form");
    return object;
  }
  switch (shape.leaf) {
    case "string": {
      let schema = z.string();
      if (shape.min !== undefined) schema = schema.min(shape.min);
      if (shape.max !== undefined) schema = schema.max(shape.max);
      return schema;
    }
    case "number":
      return shape.min === undefined ? z.number() : z.number().min(shape.min);
    case "int":
      return z.int();
    case "boolean":
      return z.boolean();
    case "enum":
      return z.enum(shape.values as [string, ...string[]]);
    case "literals":
      return z.literal(shape.values);
    case "choices":
      return z.array(z.enum(shape.values as [string, ...string[]]));
    case "list":
      return z.array(z.string());
    case "isoDate":
      return z.iso.date();
    case "date":
      return z.date();
  }
}

function wrap(wrapped: Wrapped): z.ZodType {
  const isObject = "object" in wrapped.shape;
  let schema = build(wrapped.shape);
  if (wrapped.nullable && !isObject) schema = schema.nullable();
  if (wrapped.optional) schema = schema.optional();
  if (wrapped.withDefault && !isObject) schema = (schema as z.ZodString).default(defaultFor(wrapped.shape) as string);
  return schema;
}

/** A default of the leaf's own type, as a flow would declare it. */
function defaultFor(shape: Shape): unknown {
  if ("object" in shape) return undefined;
  const defaults: Record<typeof shape.leaf, unknown> = {
    string: "abc",
    number: 5,
    int: 1,
    boolean: true,
    enum: "values" in shape ? shape.values[0] : undefined,
    literals: "values" in shape ? shape.values[0] : undefined,
    choices: "values" in shape ? [shape.values[0]] : undefined,
    list: ["x"],
    isoDate: "2025-01-01",
    date: new Date(0),
  };
  return defaults[shape.leaf];
}

const typed = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("", "-", "none", "1", "2", "y", "n", "2025-03-14", "a, b", "12.5"));

describe("for random questionnaires, every answer ends as a value or a refusal", () => {
  it("derives a spec that is plain JSON for every random structure", () => {
    fc.assert(
      fc.property(root, (shape) => {
        const spec = specFromSchema(build(shape));
        expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
        expect(spec.fields.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });

  it("ends random typed answers as a value or refusals placed on real fields", async () => {
    await fc.assert(
      fc.asyncProperty(
        root.chain((shape) => {
          const schema = build(shape);
          const spec = specFromSchema(schema);
          return fc.tuple(fc.constant(schema), fc.constant(spec), fc.tuple(...spec.fields.map(() => fc.option(typed, { nil: undefined }))));
        }),
        async ([schema, spec, texts]) => {
          const answers = Object.fromEntries(spec.fields.map((field, index) => [field.path, texts[index]]));
          const result = await validateTextAnswers(schema, answers, spec);
          const paths = new Set(spec.fields.map((field) => field.path));
          if (!result.ok) {
            expect(result.refusals.length).toBeGreaterThan(0);
            for (const path of Object.keys(result.fieldErrors)) expect(paths.has(path)).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("ends random posted forms as a value or refusals", async () => {
    const posted = fc.oneof(typed, fc.array(typed, { maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(
        root.chain((shape) => {
          const schema = build(shape);
          const spec = specFromSchema(schema);
          const fields = fc.tuple(...spec.fields.map(() => fc.option(posted, { nil: undefined })));
          return fc.tuple(fc.constant(schema), fc.constant(spec), fields, fc.dictionary(fc.string({ maxLength: 8 }), posted, { maxKeys: 3 }));
        }),
        async ([schema, spec, values, extra]) => {
          const form = { ...extra, ...Object.fromEntries(spec.fields.map((field, index) => [field.path, values[index]])) };
          const { raw, parseErrors } = rawFromFormAnswer(spec, form);
          const result = await validateAnswer(schema, raw, { spec, parseErrors });
          expect(result.ok || result.refusals.length > 0).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
