import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema, validateFormAnswer } from "@/lib/questions";

import { byId, elements, inputNamed, posted, renderForm, textOf } from "./form-markup";
import { Reimbursement } from "./questionnaires";

const Defaults = z.object({
  currency: z.string().default("EUR").describe("Currency"),
  nights: z.int().default(2).describe("Nights"),
  method: z.enum(["bank", "cash"]).meta({ description: "How to pay" }).default("cash"),
  tags: z.array(z.enum(["a", "b", "c"])).default(["a", "c"]).describe("Tags"),
  urgent: z.boolean().default(true).describe("Urgent?"),
});

describe("defaults are prefilled, hinted and submitted", () => {
  const spec = specFromSchema(Defaults);
  const html = renderForm(spec);

  it("prefills a text default and says default: x beside it", () => {
    const input = inputNamed(html, "currency");
    expect(input.attributes.value).toBe("EUR");
    const hintId = (input.attributes["aria-describedby"] ?? "").split(" ")[0] ?? "";
    expect(textOf(byId(html, hintId).inner)).toBe("default: EUR");
  });

  it("preselects an enum default, ticks a multi-choice default and a boolean default", () => {
    const checked = elements(html, "input")
      .filter((input) => "checked" in input.attributes)
      .map((input) => `${input.attributes.name}=${input.attributes.value ?? "on"}`);
    expect(checked).toEqual(["method=cash", "tags=a", "tags=c", "urgent=on"]);
  });

  it("submits the defaults when the person changes nothing", async () => {
    const result = await validateFormAnswer(Defaults, posted(html), spec);
    expect(result).toMatchObject({ ok: true, value: { currency: "EUR", nights: 2, method: "cash", tags: ["a", "c"], urgent: true } });
  });

  it("falls back to the default when the person clears the box", async () => {
    const reimbursement = specFromSchema(Reimbursement);
    const form = renderForm(reimbursement);
    const currency = inputNamed(form, "currency").attributes.id ?? "";
    const attendees = inputNamed(form, "attendees").attributes.id ?? "";
    const method = inputNamed(form, "method").attributes.id ?? "";
    const no = byId(form, `${inputNamed(form, "urgent").attributes.id ?? ""}-no`).attributes.id ?? "";
    const result = await validateFormAnswer(Reimbursement, posted(form, { typed: { [currency]: "", [attendees]: "Ana" }, tick: [method, no] }), reimbursement);
    expect(result).toMatchObject({ ok: true, value: { currency: "EUR", method: "bank_transfer", urgent: false, attendees: ["Ana"] } });
  });
});
