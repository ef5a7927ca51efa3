import { describe, expect, it } from "vitest";

import { submittedValues } from "@/components/questions/question-form-state";
import { parseFormAnswer, QUESTION_SPEC_VERSION, type QuestionSpec } from "@/lib/questions";

import { controlsOf, elements, posted, renderForm } from "./form-markup";

/** An ask whose spec offers suggestions on a free-text field: radios plus the person's own words. */
const suggested: QuestionSpec = {
  version: QUESTION_SPEC_VERSION,
  fields: [
    {
      path: "answer",
      name: "answer",
      question: "Should I approve the claim?",
      kind: "text",
      options: [
        { value: "Approve", label: "Approve" },
        { value: "Reject", label: "Reject" },
      ],
      optional: false,
      nullable: false,
      hasDefault: false,
      hints: {},
    },
  ],
  groups: [],
  crossFieldChecks: false,
};

const [field] = suggested.fields;
const read = (form: URLSearchParams) => (field === undefined ? undefined : parseFormAnswer(field, form.getAll("answer")));

describe("suggested answers leave room for the person's own words", () => {
  const html = renderForm(suggested);
  // The person's own words have room for an explanation: a box of several lines (the spec sets no short limit).
  const textBox = (markup: string) => elements(markup, "textarea").map((area) => controlsOf(markup).find((control) => control.at === area.at)).find((area) => area?.attributes.name === "answer");
  const box = { attributes: { id: textBox(html)?.attributes.id } };
  const own = elements(html, "input").find((input) => input.attributes.type === "radio" && input.attributes.value === "");
  const reject = elements(html, "input").find((input) => input.attributes.value === "Reject");

  it("offers a radio per suggestion and a text box, all under the field's name", () => {
    const named = controlsOf(html).filter((control) => control.attributes.name === "answer");
    expect(named.map((control) => `${control.attributes.type ?? control.tag}:${control.attributes.value ?? ""}`)).toEqual(["radio:", "textarea:", "radio:Approve", "radio:Reject"]);
  });

  it("takes the typed words when no suggestion is chosen", () => {
    expect(read(posted(html, { typed: { [box.attributes.id ?? ""]: "Ask for the receipt" } }))).toEqual({ ok: true, value: "Ask for the receipt" });
    expect(read(posted(html, { typed: { [box.attributes.id ?? ""]: "Ask for the receipt" }, tick: [own?.attributes.id ?? ""] }))).toEqual({ ok: true, value: "Ask for the receipt" });
  });

  it("takes a chosen suggestion over the box", () => {
    expect(read(posted(html, { typed: { [box.attributes.id ?? ""]: "half-typed" }, tick: [reject?.attributes.id ?? ""] }))).toEqual({ ok: true, value: "Reject" });
  });

  it("restores the choice and the typed words after a refusal", () => {
    const form = posted(html, { typed: { [box.attributes.id ?? ""]: "half-typed" }, tick: [reject?.attributes.id ?? ""] });
    const again = renderForm(suggested, { values: submittedValues(suggested, form) });
    expect(textBox(again)?.attributes.value).toBe("half-typed");
    expect(posted(again).toString()).toBe(form.toString());
  });
});
