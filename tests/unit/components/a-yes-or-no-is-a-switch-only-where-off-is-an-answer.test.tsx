import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema, validateFormAnswer } from "@/lib/questions";

import { elements, inputNamed, posted, renderForm } from "./form-markup";
import { Reimbursement } from "./questionnaires";

describe("a yes/no with a default is a switch: unticked it posts nothing, which means no", () => {
  const Deploy = z.object({ rollbackTested: z.boolean().default(false).describe("Was the rollback tested?") });
  const spec = specFromSchema(Deploy);
  const html = renderForm(spec);
  const tested = inputNamed(html, "rollbackTested");

  it("is one checkbox with no value attribute, so ticked it posts on", () => {
    expect(tested.attributes.type).toBe("checkbox");
    expect(tested.attributes.role).toBe("switch");
    expect(tested.attributes.value).toBeUndefined();
    expect(posted(html, { tick: [tested.attributes.id ?? ""] }).getAll("rollbackTested")).toEqual(["on"]);
  });

  it("posts nothing unticked, and the server reads that as false", async () => {
    const form = posted(html);
    expect(form.has("rollbackTested")).toBe(false);
    expect(await validateFormAnswer(Deploy, form, spec)).toMatchObject({ ok: true, value: { rollbackTested: false } });
  });
});

describe("a required yes/no without a default starts unanswered", () => {
  const spec = specFromSchema(Reimbursement);
  const html = renderForm(spec);
  const choices = elements(html, "input").filter((input) => input.attributes.name === "urgent");

  it("is Yes and No radios, neither chosen", () => {
    expect(choices.map((input) => [input.attributes.type, input.attributes.value, "checked" in input.attributes])).toEqual([
      ["radio", "yes", false],
      ["radio", "no", false],
    ]);
  });

  it("is refused as needing an answer when neither is chosen, never read as No", async () => {
    const form = posted(html, { typed: { [inputNamed(html, "attendees").attributes.id ?? ""]: "Ana" }, tick: [inputNamed(html, "method").attributes.id ?? ""] });
    expect(form.has("urgent")).toBe(false);
    expect(await validateFormAnswer(Reimbursement, form, spec)).toMatchObject({ ok: false, fieldErrors: { urgent: ["This question needs an answer."] } });
  });
});
