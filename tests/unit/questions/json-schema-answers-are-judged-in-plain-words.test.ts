import { describe, expect, it } from "vitest";

import { MISSING_ANSWER_MESSAGE, validateAnswer, validateFormAnswer, validateTextAnswers } from "@/lib/questions/validate-answer";

import { objectOf, zodFrom } from "./json-schema";

const claim = zodFrom({
  type: "object",
  properties: {
    amount: { type: "number", exclusiveMinimum: 0, maximum: 10 },
    guests: { type: "integer", minimum: 1 },
    email: { type: "string", format: "email" },
    website: { type: ["string", "null"], format: "uri" },
    at: { type: "string", format: "date-time" },
    code: { type: "string", minLength: 3, maxLength: 3, pattern: "^[A-Z]+$" },
    currency: { type: "string", default: "EUR" },
    tags: { type: "array", items: { type: "string" }, maxItems: 2, uniqueItems: true },
    address: { type: "object", properties: { city: { type: "string", minLength: 2 } }, required: ["city"] },
  },
  required: ["amount", "guests", "email", "code", "address"],
});

async function refusals(form: Record<string, string | string[]>): Promise<Record<string, string[]>> {
  const result = await validateFormAnswer(claim, { amount: "5", guests: "2", email: "ana@example.com", code: "ABC", "address.city": "Oslo", ...form });
  return result.ok ? {} : result.fieldErrors;
}

describe("answers are judged by the JSON Schema's rules, refusals in plain words on their field", () => {
  it("accepts a good answer as typed values, the default filled in and skipped optionals left out", async () => {
    const result = await validateFormAnswer(claim, { amount: "2.5", guests: "3", email: "ana@example.com", code: "ABC", "address.city": "Oslo", tags: "a, b" });
    expect(result).toMatchObject({
      ok: true,
      value: { amount: 2.5, guests: 3, email: "ana@example.com", code: "ABC", currency: "EUR", tags: ["a", "b"], address: { city: "Oslo" } },
    });
    expect(result.ok && "website" in result.value).toBe(false);
  });

  it("asks for a required answer left empty in the same words as a hand-written schema", async () => {
    expect(await refusals({ amount: "", "address.city": " " })).toEqual({ amount: [MISSING_ANSWER_MESSAGE], "address.city": [MISSING_ANSWER_MESSAGE] });
  });

  it("says the bounds of a number", async () => {
    expect([await refusals({ amount: "0" }), await refusals({ amount: "11" }), await refusals({ guests: "0" })]).toEqual([
      { amount: ["Must be more than 0"] },
      { amount: ["Must be at most 10"] },
      { guests: ["Must be at least 1"] },
    ]);
  });

  it("says a whole number is needed", async () => {
    expect(await refusals({ guests: "1.5" })).toEqual({ guests: ["Must be a whole number"] });
  });

  it("says what a format wants, once", async () => {
    expect([await refusals({ email: "ana" }), await refusals({ website: "example" }), await refusals({ at: "2025-03-14 09:30" })]).toEqual([
      { email: ["Must be a valid email address"] },
      { website: ["Must be a valid URL, such as https://example.com"] },
      { at: ["Must be a date and time such as 2025-03-14T09:30:00Z"] },
    ]);
  });

  it("says the length and the pattern of text", async () => {
    expect([await refusals({ code: "AB" }), await refusals({ code: "abc" })]).toEqual([{ code: ["Must be at least 3 characters"] }, { code: ["Must match the pattern ^[A-Z]+$"] }]);
  });

  it("says how many items a list takes and that they must differ", async () => {
    expect([await refusals({ tags: "a, b, c" }), await refusals({ tags: "a, a" })]).toEqual([{ tags: ["Give at most 2 items"] }, { tags: ["Give each item only once"] }]);
  });

  it("puts a nested property's refusal on its full dotted path", async () => {
    expect(await refusals({ "address.city": "O" })).toEqual({ "address.city": ["Must be at least 2 characters"] });
  });

  it('takes "none" as null on a nullable property and "-" as the default', async () => {
    const result = await validateTextAnswers(claim, { amount: "5", guests: "2", email: "ana@example.com", code: "ABC", "address.city": "Oslo", website: "none", currency: "-" });
    expect(result).toMatchObject({ ok: true, value: { website: null, currency: "EUR" } });
  });

  it("refuses values of the wrong type sent as JSON in plain words", async () => {
    const schema = zodFrom(objectOf({ name: { type: "string" }, paid: { type: "boolean" }, tags: { type: "array", items: { type: "string" } } }));
    const result = await validateAnswer(schema, { name: 3, paid: "yes", tags: "a" });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: { name: ["Must be text"], paid: ["Must be yes or no (true or false)"], tags: ["Must be a list"] },
    });
  });
});
