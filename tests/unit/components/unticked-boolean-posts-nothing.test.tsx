import { describe, expect, it } from "vitest";

import { specFromSchema, validateFormAnswer } from "@/lib/questions";

import { inputNamed, posted, renderForm } from "./form-markup";
import { Reimbursement } from "./questionnaires";

describe("an unticked boolean posts nothing, which means no", () => {
  const spec = specFromSchema(Reimbursement);
  const html = renderForm(spec);
  const urgent = inputNamed(html, "urgent");

  it("is one checkbox with no value attribute, so ticked it posts on", () => {
    expect(urgent.attributes.type).toBe("checkbox");
    expect(urgent.attributes.value).toBeUndefined();
    expect(posted(html, { tick: [urgent.attributes.id ?? ""] }).getAll("urgent")).toEqual(["on"]);
  });

  it("posts nothing unticked, and the server reads that as false", async () => {
    const form = posted(html, { typed: { [inputNamed(html, "attendees").attributes.id ?? ""]: "Ana" }, tick: [inputNamed(html, "method").attributes.id ?? ""] });
    expect(form.has("urgent")).toBe(false);
    expect(await validateFormAnswer(Reimbursement, form, spec)).toMatchObject({ ok: true, value: { urgent: false } });
  });
});
