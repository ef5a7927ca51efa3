import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema } from "@/lib/questions/spec-from-schema";
import { isUnsupportedSchemaError, type UnsupportedSchemaError } from "@/lib/questions/unsupported-schema-error";

function refusal(schema: z.ZodType): UnsupportedSchemaError {
  try {
    specFromSchema(schema);
  } catch (error) {
    if (isUnsupportedSchemaError(error)) return error;
    throw error;
  }
  throw new Error("expected the schema to be refused");
}

describe("a shape that cannot be asked is refused when the spec is derived, naming the field", () => {
  const cases: [string, z.ZodType, string][] = [
    ["a union of objects", z.object({ payment: z.union([z.object({ iban: z.string() }), z.object({ card: z.string() })]) }), "payment"],
    ["a record", z.object({ extras: z.record(z.string(), z.string()) }), "extras"],
    ["a tuple", z.object({ point: z.tuple([z.number(), z.number()]) }), "point"],
    ["a list of objects", z.object({ lines: z.array(z.object({ amount: z.number() })) }), "lines"],
    ["a union of a string and a number", z.object({ code: z.union([z.string(), z.number()]) }), "code"],
    ["a bigint", z.object({ big: z.bigint() }), "big"],
    ["an unknown", z.object({ anything: z.unknown() }), "anything"],
    ["a nested unsupported field, by full path", z.object({ outer: z.object({ inner: z.map(z.string(), z.string()) }) }), "outer.inner"],
    ["a nested object that may be null", z.object({ address: z.object({ city: z.string() }).nullable() }), "address"],
    ["a name with a dot in it", z.object({ "a.b": z.string() }), "a.b"],
  ];
  for (const [name, schema, path] of cases) {
    it(`refuses ${name}`, () => {
      const error = refusal(schema);
      expect(error.code).toBe("unsupported_schema");
      expect(error.path).toBe(path);
      expect(error.message).toContain(`"${path}"`);
    });
  }

  it("refuses a schema that is not an object at all", () => {
    expect(refusal(z.string()).path).toBe("");
  });
});
