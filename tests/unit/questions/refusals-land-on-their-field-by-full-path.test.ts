import { describe, expect, it } from "vitest";
import { z } from "zod";

import { validateAnswer, validateTextAnswers } from "@/lib/questions/validate-answer";

const schema = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/, "Use a three-letter code such as EUR."),
  address: z.object({ city: z.string().min(2), geo: z.object({ lat: z.number().max(90) }) }),
  attendees: z.array(z.string().min(2)).min(1),
});

describe("each refusal lands on the field it was refused for, by full path, in the schema's words", () => {
  it("shows a custom message verbatim", async () => {
    const result = await validateTextAnswers(schema, { currency: "euro", "address.city": "Oslo", "address.geo.lat": "1", attendees: "Ana" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { currency: ["Use a three-letter code such as EUR."] }, formErrors: [] });
  });

  it("puts a nested field's refusal on its full dotted path, not on its top-level object", async () => {
    const result = await validateTextAnswers(schema, { currency: "EUR", "address.city": "O", "address.geo.lat": "91", attendees: "Ana" });
    expect(result.ok ? {} : Object.keys(result.fieldErrors).sort()).toEqual(["address.city", "address.geo.lat"]);
  });

  it("puts a list item's refusal on the list's field, keeping the item's full path", async () => {
    const result = await validateTextAnswers(schema, { currency: "EUR", "address.city": "Oslo", "address.geo.lat": "1", attendees: "Ana, B" });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: { attendees: ["Too small: expected string to have >=2 characters"] },
      refusals: [{ path: "attendees.1", field: "attendees", message: "Too small: expected string to have >=2 characters" }],
    });
  });

  it("keeps a refusal whose path is no field as a form-level message", async () => {
    const strict = z.strictObject({ name: z.string() });
    const result = await validateAnswer(strict, { name: "Ana", extra: 1 });
    expect(result).toMatchObject({ ok: false, fieldErrors: {}, formErrors: ['Unrecognized key: "extra"'] });
  });

  it("keeps a refusal of the whole answer as a form-level message", async () => {
    const result = await validateAnswer(z.object({ name: z.string() }), null);
    expect(result).toMatchObject({ ok: false, formErrors: ["Invalid input: expected object, received null"] });
  });

  it("gives every refused field at once, not the first only", async () => {
    const result = await validateTextAnswers(schema, {});
    expect(result.ok ? [] : Object.keys(result.fieldErrors).sort()).toEqual(["address.city", "address.geo.lat", "attendees", "currency"]);
  });

  it("never turns a refusal into a value", async () => {
    const result = await validateTextAnswers(schema, { currency: "x" });
    expect("value" in result).toBe(false);
  });
});
