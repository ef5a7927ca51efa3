import { describe, expect, it } from "vitest";

import { submittedValues } from "@/components/questions/question-form-state";
import { specFromSchema, validateFormAnswer } from "@/lib/questions";

import { elements, inputNamed, posted, renderForm } from "./form-markup";
import { EveryKind, Reimbursement } from "./questionnaires";

describe("a refused submission keeps what was typed", () => {
  it("restores every returned value as the inputs' defaults, unreadable text included", async () => {
    const spec = specFromSchema(EveryKind);
    const first = renderForm(spec);
    const id = (path: string) => inputNamed(first, path).attributes.id ?? "";
    const form = posted(first, {
      typed: { [id("note")]: "Taxi", [id("amount")]: "12,50", [id("spentOn")]: "2025-03-14", [id("address.city")]: "Lyon" },
      tick: [id("tags"), id("receipt"), `${id("comment")}-none`],
    });
    const verdict = await validateFormAnswer(EveryKind, form, spec);
    expect(verdict.ok).toBe(false);

    const again = renderForm(spec, { values: submittedValues(spec, form), fieldErrors: verdict.ok ? {} : verdict.fieldErrors });
    expect(inputNamed(again, "note").attributes.value).toBe("Taxi");
    expect(inputNamed(again, "amount").attributes.value).toBe("12,50");
    expect(inputNamed(again, "spentOn").attributes.value).toBe("2025-03-14");
    expect(inputNamed(again, "address.city").attributes.value).toBe("Lyon");
    // Posting the restored form again sends exactly what was sent the first time.
    expect(posted(again).toString()).toBe(form.toString());
  });

  it("leaves a default the person cleared empty rather than filling it back in", () => {
    const spec = specFromSchema(Reimbursement);
    const html = renderForm(spec, { values: { method: "payroll", attendees: "" } });
    expect(inputNamed(html, "currency").attributes.value).toBe("");
  });

  it("leaves a boolean the person unticked unticked, even when its default is yes", () => {
    const spec = specFromSchema(Reimbursement);
    const html = renderForm(spec, { values: { method: "payroll" } });
    expect(elements(html, "input").filter((input) => input.attributes.name === "urgent" && "checked" in input.attributes)).toEqual([]);
  });

  it("ticks back the boxes of a returned multi-choice answer, one string or several", () => {
    const spec = specFromSchema(EveryKind);
    const tickedTags = (html: string) => elements(html, "input").filter((input) => input.attributes.name === "tags" && "checked" in input.attributes).map((input) => input.attributes.value);
    expect(tickedTags(renderForm(spec, { values: { tags: ["food", "hotel"] } }))).toEqual(["food", "hotel"]);
    expect(tickedTags(renderForm(spec, { values: { tags: "travel, hotel" } }))).toEqual(["travel", "hotel"]);
  });
});
