import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";
import { validateTextAnswers } from "@/lib/questions/validate-answer";

import { fieldOf } from "./field";

describe("an empty or whitespace answer is missing — never \"\" and never 0", () => {
  for (const kind of [z.string(), z.number(), z.int(), z.boolean(), z.enum(["a"]), z.array(z.string()).optional(), z.array(z.enum(["a"])).default(["a"]), z.iso.date()]) {
    for (const text of ["", "   ", "\t\n"]) {
      it(`reads ${JSON.stringify(text)} as missing for a ${fieldOf(kind).kind} field`, () => {
        expect(parseTextAnswer(fieldOf(kind), text)).toEqual({ ok: true, value: undefined });
      });
    }
  }

  it("refuses an empty required number as needing an answer, not as 0", async () => {
    const result = await validateTextAnswers(z.object({ amount: z.number() }), { amount: "  " });
    expect(result).toMatchObject({ ok: false, fieldErrors: { amount: ["This question needs an answer."] } });
  });

  it("refuses an empty required string with the schema's custom required message", async () => {
    const schema = z.object({ name: z.string({ error: "Please give your name." }) });
    const result = await validateTextAnswers(schema, { name: "" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { name: ["Please give your name."] } });
  });

  it("omits an empty optional field from the value", async () => {
    const result = await validateTextAnswers(z.object({ note: z.string().optional() }), { note: "" });
    expect(result.ok && Object.keys(result.value)).toEqual([]);
  });

  it("reads an empty required list as the empty list, so the list's own minimum message is shown", async () => {
    const schema = z.object({ attendees: z.array(z.string()).min(1, "Name at least one attendee.") });
    expect(await validateTextAnswers(schema, { attendees: " , " })).toMatchObject({ ok: false, fieldErrors: { attendees: ["Name at least one attendee."] } });
  });

  it("avoids the z.coerce.number() pitfall: an empty answer is refused, never coerced to 0", async () => {
    expect(z.coerce.number().parse("")).toBe(0); // the pitfall itself, so this test cannot pass vacuously
    const result = await validateTextAnswers(z.object({ amount: z.coerce.number() }), { amount: "" });
    expect(result.ok).toBe(false);
  });
});
