import { describe, expect, it } from "vitest";
import { z } from "zod";
import { schemaDescription, schemaNarrowings } from "@/lib/runtime";

/** How `after` refuses what `before` took, each as "field: change". */
function narrowings(before: z.ZodType, after: z.ZodType): string[] {
  return schemaNarrowings(schemaDescription(before), schemaDescription(after)).map((narrowing) => (narrowing.field ? `${narrowing.field}: ${narrowing.change}` : narrowing.change));
}

const form = (shape: z.ZodRawShape) => z.object(shape);

describe("an answer schema that changed", () => {
  describe("refuses what it took, and says how", () => {
    it("when a new field is required", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.string(), b: z.string() }))).toEqual(["b: is new and required: questions already asked do not ask for it"]);
    });

    it("when an optional field becomes required", () => {
      expect(narrowings(form({ a: z.string().optional() }), form({ a: z.string() }))).toEqual(["a: is now required"]);
    });

    it("when a field with a default loses it (so it must be given)", () => {
      expect(narrowings(form({ a: z.string().default("EUR") }), form({ a: z.string() }))).toEqual(["a: is now required"]);
    });

    it("when a field is removed", () => {
      expect(narrowings(form({ a: z.string(), b: z.string() }), form({ a: z.string() }))).toEqual([
        "b: was removed: questions already asked still ask for it, and an answer that gives it may be refused",
      ]);
    });

    it("when a field's type changes", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.number() }))).toEqual(["a: was a string and is now a number"]);
    });

    it("when a number must now be whole", () => {
      expect(narrowings(form({ a: z.number() }), form({ a: z.int() }))).toEqual(["a: was a number and is now a whole number"]);
    });

    it("when a choice loses a value", () => {
      expect(narrowings(form({ a: z.enum(["x", "y", "z"]) }), form({ a: z.enum(["x"]) }))).toEqual(['a: no longer takes "y", "z"']);
    });

    it("when a choice written as literals with titles loses one", () => {
      const before = z.union([z.literal("bank").meta({ title: "Bank" }), z.literal("cash").meta({ title: "Cash" })]);
      const after = z.union([z.literal("bank").meta({ title: "Bank" })]);
      expect(narrowings(form({ a: before }), form({ a: after }))).toEqual(['a: no longer takes "cash"']);
    });

    it("when free text becomes a choice", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.enum(["x", "y"]) }))).toEqual(['a: now takes only "x", "y"']);
    });

    it("when empty (null) is no longer taken", () => {
      expect(narrowings(form({ a: z.string().nullable() }), form({ a: z.string() }))).toEqual(["a: no longer takes empty (null)"]);
    });

    it("when a lower bound rises", () => {
      expect(narrowings(form({ a: z.number().min(1) }), form({ a: z.number().min(5) }))).toEqual(["a: must now be at least 5 (was at least 1)"]);
    });

    it("when an upper bound falls", () => {
      expect(narrowings(form({ a: z.int().max(10) }), form({ a: z.int().max(3) }))).toEqual(["a: must now be at most 3 (was at most 10)"]);
    });

    it("when an inclusive bound becomes exclusive at the same value", () => {
      expect(narrowings(form({ a: z.number().min(0) }), form({ a: z.number().gt(0) }))).toEqual(["a: must now be more than 0 (was at least 0)"]);
    });

    it("when a bound is added where there was none", () => {
      expect(narrowings(form({ a: z.number() }), form({ a: z.number().max(100) }))).toEqual(["a: must now be at most 100"]);
    });

    it("when a number must now be a multiple of something it need not be", () => {
      expect(narrowings(form({ a: z.number().multipleOf(0.5) }), form({ a: z.number().multipleOf(1) }))).toEqual(["a: must now be a multiple of 1"]);
    });

    it("when a text's length is bounded tighter", () => {
      expect(narrowings(form({ a: z.string().max(100) }), form({ a: z.string().min(2).max(50) }))).toEqual([
        "a: must now be at least 2 characters long",
        "a: must now be at most 50 characters long",
      ]);
    });

    it("when a text must now match a pattern", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.string().regex(/^[A-Z]{3}$/) }))).toEqual(["a: must now match the pattern ^[A-Z]{3}$"]);
    });

    it("when a text must now be in a format, said once for the format and its pattern", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.email() }))).toEqual(["a: must now be in the format email"]);
    });

    it("when a list must hold more, fewer or only different items", () => {
      expect(narrowings(form({ a: z.array(z.string()) }), form({ a: z.array(z.string()).min(1).max(3) }))).toEqual(["a: must now list at least 1 item", "a: must now list at most 3 items"]);
    });

    it("when a list's items narrow, naming the items", () => {
      expect(narrowings(form({ a: z.array(z.enum(["x", "y"])) }), form({ a: z.array(z.enum(["x"])) }))).toEqual(['a[]: no longer takes "y"']);
    });

    it("when a nested field narrows, naming it by its path", () => {
      expect(narrowings(form({ address: form({ city: z.string() }) }), form({ address: form({ city: z.string(), zip: z.string() }) }))).toEqual([
        "address.zip: is new and required: questions already asked do not ask for it",
      ]);
    });

    it("when fields it does not name are now refused", () => {
      expect(narrowings(z.looseObject({ a: z.string() }), z.strictObject({ a: z.string() }))).toEqual(["now refuses fields it does not name"]);
    });

    it("when a check in code is added, which it cannot read, and says it may refuse", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.string().refine((text) => text !== "no") }))).toEqual([
        "a: has a new check in code that Parley cannot read; it may refuse answers that were valid",
      ]);
    });

    it("when a keyword it does not read changes, and says it cannot compare it", () => {
      const before = { type: "object", properties: { a: { type: "string" } } };
      const after = { type: "object", properties: { a: { type: "string", contentEncoding: "base64" } } };
      expect(schemaNarrowings(before, after)).toEqual([{ field: "a", change: "changed in a way Parley cannot compare (contentEncoding); it may refuse answers that were valid" }]);
    });

    it("when a type JSON Schema cannot describe changes, and says it cannot compare it", () => {
      expect(narrowings(form({ a: z.date() }), form({ a: z.string() }))).toEqual([
        "a: changed in a way Parley cannot compare (a type JSON Schema cannot describe); it may refuse answers that were valid",
      ]);
    });

    it("when a field that took anything now takes one type", () => {
      expect(narrowings(form({ a: z.unknown() }), form({ a: z.string() }))).toEqual(["a: was anything and is now a string"]);
    });
  });

  describe("takes all it took", () => {
    it("when only its words change: titles, descriptions, error messages, defaults", () => {
      const before = form({ a: z.string().min(2, "Too short").default("ab").describe("Old question") }).meta({ title: "Old" });
      const after = form({ a: z.string().min(2, "Say more").default("abc").describe("New question") }).meta({ title: "New" });
      expect(narrowings(before, after)).toEqual([]);
    });

    it("when a new field is optional", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.string(), b: z.string().optional() }))).toEqual([]);
    });

    it("when a required field becomes optional", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.string().optional() }))).toEqual([]);
    });

    it("when a choice gains a value", () => {
      expect(narrowings(form({ a: z.enum(["x"]) }), form({ a: z.enum(["x", "y"]) }))).toEqual([]);
    });

    it("when a choice becomes free text", () => {
      expect(narrowings(form({ a: z.enum(["x", "y"]) }), form({ a: z.string() }))).toEqual([]);
    });

    it("when a choice's values stay but are written as literals instead of an enum", () => {
      expect(narrowings(form({ a: z.enum(["x", "y"]) }), form({ a: z.union([z.literal("x"), z.literal("y"), z.literal("z")]) }))).toEqual([]);
    });

    it("when empty (null) becomes taken", () => {
      expect(narrowings(form({ a: z.string() }), form({ a: z.string().nullable() }))).toEqual([]);
    });

    it("when a whole number may now be any number", () => {
      expect(narrowings(form({ a: z.int() }), form({ a: z.number() }))).toEqual([]);
    });

    it("when bounds widen or go", () => {
      expect(narrowings(form({ a: z.number().min(1).max(5), b: z.string().max(10) }), form({ a: z.number().min(0), b: z.string().max(20) }))).toEqual([]);
    });

    it("when a number must be a multiple of a divisor of what it had to be a multiple of", () => {
      expect(narrowings(form({ a: z.number().multipleOf(1) }), form({ a: z.number().multipleOf(0.5) }))).toEqual([]);
    });

    it("when a check in code is taken away", () => {
      expect(narrowings(form({ a: z.string().refine((text) => text !== "no") }), form({ a: z.string() }))).toEqual([]);
    });

    it("when its new schema takes anything", () => {
      expect(narrowings(form({ a: z.string() }), z.unknown())).toEqual([]);
    });
  });
});
