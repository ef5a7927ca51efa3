import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseFormAnswer } from "@/lib/questions/form-answer";
import { validateFormAnswer } from "@/lib/questions/validate-answer";

import { fieldOf } from "./field";

const schema = z.object({
  // A yes/no with a default is a switch, where unticked (nothing sent) is an answer: no.
  urgent: z.boolean().default(false),
  attendees: z.array(z.enum(["ana", "ben", "cy"])).min(1),
  currency: z.string().length(3).default("EUR"),
  amount: z.number(),
});

describe("a posted browser form is read with the browser's habits in mind", () => {
  it("reads one ticked checkbox, which arrives as a single string, as a list of one", async () => {
    const form = new URLSearchParams({ urgent: "on", attendees: "ben", currency: "GBP", amount: "5" });
    expect(await validateFormAnswer(schema, form)).toMatchObject({ ok: true, value: { attendees: ["ben"] } });
  });

  it("reads one ticked checkbox given as a plain string in a record as a list of one", () => {
    expect(parseFormAnswer(fieldOf(z.array(z.enum(["a", "b"]))), ["b"])).toEqual({ ok: true, value: ["b"] });
  });

  it("reads several ticked checkboxes as a list, deduplicated", async () => {
    const form = new FormData();
    for (const [name, value] of [["attendees", "ana"], ["attendees", "cy"], ["attendees", "ana"], ["amount", "5"]]) form.append(name as string, value as string);
    expect(await validateFormAnswer(schema, form)).toMatchObject({ ok: true, value: { attendees: ["ana", "cy"] } });
  });

  it("reads an unticked boolean box, which sends nothing, as false", async () => {
    const result = await validateFormAnswer(schema, { attendees: ["ana"], amount: "1" });
    expect(result).toMatchObject({ ok: true, value: { urgent: false } });
  });

  it("reads a ticked boolean box as true", () => {
    expect(parseFormAnswer(fieldOf(z.boolean()), ["on"])).toEqual({ ok: true, value: true });
  });

  it("refuses a required yes/no without a default left unchosen as missing, never as no", async () => {
    const required = z.object({ urgent: z.boolean() });
    expect(await validateFormAnswer(required, {})).toMatchObject({ ok: false, fieldErrors: { urgent: ["This question needs an answer."] } });
    expect(await validateFormAnswer(required, { urgent: "no" })).toMatchObject({ ok: true, value: { urgent: false } });
  });

  it("reads a checkbox group with nothing ticked as no choices, which the schema may refuse", async () => {
    const result = await validateFormAnswer(schema, { amount: "1" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { attendees: ["Too small: expected array to have >=1 items"] } });
  });

  it("applies the default to a cleared defaulted input", async () => {
    expect(await validateFormAnswer(schema, { attendees: "ana", currency: "  ", amount: "1" })).toMatchObject({ ok: true, value: { currency: "EUR" } });
  });

  it("refuses a cleared required number as missing, never as 0", async () => {
    const result = await validateFormAnswer(schema, { attendees: "ana", amount: "" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { amount: ["This question needs an answer."] } });
  });

  it("ignores posted names that are not fields of the spec", async () => {
    const result = await validateFormAnswer(schema, { attendees: "ana", amount: "1", ["__proto__"]: "x", isAdmin: "yes" } as Record<string, string>);
    expect(result.ok && Object.keys(result.value).sort()).toEqual(["amount", "attendees", "currency", "urgent"]);
  });
});
