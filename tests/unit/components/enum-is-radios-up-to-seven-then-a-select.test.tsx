import { describe, expect, it } from "vitest";

import { z } from "zod";

import { specFromSchema, validateFormAnswer } from "@/lib/questions";

import { elements, posted, renderForm, textOf } from "./form-markup";
import { enumWith, Reimbursement } from "./questionnaires";

describe("an enum is radios up to seven options, then a select", () => {
  it("renders seven options as seven radios in a fieldset whose legend is the question", () => {
    const html = renderForm(enumWith(7));
    expect(elements(html, "input").filter((input) => input.attributes.type === "radio" && input.attributes.name === "pick")).toHaveLength(7);
    expect(elements(html, "select")).toHaveLength(0);
    expect(elements(html, "legend").map((legend) => textOf(legend.inner))).toContain("Pick one");
  });

  it("renders eight options as a select with an empty first choice that posts nothing", () => {
    const html = renderForm(enumWith(8));
    expect(elements(html, "input").filter((input) => input.attributes.type === "radio")).toHaveLength(0);
    const [select] = elements(html, "select");
    const options = elements(select?.inner ?? "", "option");
    expect(options.map((option) => option.attributes.value)).toEqual(["", "option1", "option2", "option3", "option4", "option5", "option6", "option7", "option8"]);
    expect(posted(html).getAll("pick")).toEqual([""]);
  });

  it("shows each option's description beside it", () => {
    const html = renderForm(specFromSchema(Reimbursement));
    expect(textOf(html)).toContain("To the account on file");
    expect(textOf(html)).toContain("With your next salary");
  });

  it("posts a number option's value as text the server reads back as the number", async () => {
    const Schema = z.object({ level: z.union([z.literal(1), z.literal(2), z.literal(3)]).describe("Level") });
    const spec = specFromSchema(Schema);
    const html = renderForm(spec);
    const second = elements(html, "input").find((input) => input.attributes.value === "2");
    const result = await validateFormAnswer(Schema, posted(html, { tick: [second?.attributes.id ?? ""] }), spec);
    expect(result).toMatchObject({ ok: true, value: { level: 2 } });
  });
});
