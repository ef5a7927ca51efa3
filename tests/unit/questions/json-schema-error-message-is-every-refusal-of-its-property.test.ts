import { describe, expect, it } from "vitest";

import { MISSING_ANSWER_MESSAGE, validateAnswer, validateFormAnswer, validateTextAnswers } from "@/lib/questions/validate-answer";

import { objectOf, refusalOf, zodFrom } from "./json-schema";

const CODE = "Use a three-letter code such as EUR.";

describe("a property's errorMessage is what every refusal of it says, verbatim", () => {
  const schema = zodFrom(
    objectOf(
      {
        code: { type: "string", minLength: 3, maxLength: 3, pattern: "^[A-Z]+$", errorMessage: CODE },
        size: { enum: ["s", "m"], errorMessage: "Pick s or m." },
        seats: { type: "integer", minimum: 1, errorMessage: "Book at least one seat." },
        tags: { type: "array", items: { type: "string", maxLength: 3 }, minItems: 1, errorMessage: "Short tags, at least one." },
        note: { type: "string", maxLength: 2 },
      },
      ["note"],
    ),
  );
  const good = { code: "EUR", size: "s", seats: "1", tags: "a" };

  it("is said when a required property is left empty", async () => {
    const result = await validateTextAnswers(schema, {});
    expect(result).toMatchObject({ ok: false, fieldErrors: { code: [CODE], size: ["Pick s or m."], seats: ["Book at least one seat."], tags: ["Short tags, at least one."] } });
  });

  it("is said, once, when one or several of its checks fail", async () => {
    const [tooShort, wrongAndShort] = [await validateFormAnswer(schema, { ...good, code: "EU" }), await validateFormAnswer(schema, { ...good, code: "e" })];
    expect([tooShort.ok || tooShort.fieldErrors, wrongAndShort.ok || wrongAndShort.fieldErrors]).toEqual([{ code: [CODE] }, { code: [CODE] }]);
  });

  it("is said for a number out of bounds and for a value of the wrong type", async () => {
    const result = await validateAnswer(schema, { code: "EUR", size: "s", seats: 0, tags: ["a"] });
    const wrongType = await validateAnswer(schema, { code: 3, size: "s", seats: 2, tags: ["a"] });
    expect([result.ok || result.fieldErrors, wrongType.ok || wrongType.fieldErrors]).toEqual([{ seats: ["Book at least one seat."] }, { code: [CODE] }]);
  });

  it("is said for a choice not offered", async () => {
    const result = await validateAnswer(schema, { code: "EUR", size: "xl", seats: 1, tags: ["a"] });
    expect(result).toMatchObject({ ok: false, fieldErrors: { size: ["Pick s or m."] } });
  });

  it("is said for a list item that fails, on the list's field with the item's path", async () => {
    const result = await validateFormAnswer(schema, { ...good, tags: "ab, abcd" });
    expect(result).toMatchObject({ ok: false, refusals: [{ path: "tags.1", field: "tags", message: "Short tags, at least one." }] });
  });

  it("leaves the plain words to properties without one", async () => {
    const result = await validateFormAnswer(schema, { ...good, note: "abc" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { note: ["Must be at most 2 characters"] } });
  });

  it("on a nested object, is said for its properties, unless one has its own", async () => {
    const nested = zodFrom(
      objectOf({
        address: {
          type: "object",
          errorMessage: "Give the full address.",
          properties: { city: { type: "string" }, zip: { type: "string", pattern: "^\\d{4}$", errorMessage: "Four digits." } },
          required: ["city", "zip"],
        },
        name: { type: "string" },
      }),
    );
    const result = await validateTextAnswers(nested, { "address.zip": "12" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { "address.city": ["Give the full address."], "address.zip": ["Four digits."], name: [MISSING_ANSWER_MESSAGE] } });
  });

  it("must be one string: messages per keyword are refused, not half-applied", () => {
    expect(refusalOf(objectOf({ code: { type: "string", minLength: 3, errorMessage: { minLength: "Too short" } } }))).toMatchObject({
      path: "properties.code.errorMessage",
      message: expect.stringContaining("one non-empty string") as unknown,
    });
  });
});
