import { describe, expect, it } from "vitest";

import { QUESTION_SPEC_VERSION, type QuestionSpec } from "@/lib/questions";

import { elements, renderForm } from "./form-markup";

const SCRIPT = "<script>window.pwned = 1</script>";
const IMAGE = '<img src=x onerror="window.pwned = 1">';

/** An agent's ask whose every text was written to attack the page. */
const hostile: QuestionSpec = {
  version: QUESTION_SPEC_VERSION,
  title: SCRIPT,
  description: IMAGE,
  fields: [
    {
      path: "answer",
      name: "answer",
      question: `Approve? ${SCRIPT} ${IMAGE}`,
      kind: "enum",
      options: [
        { value: SCRIPT, label: SCRIPT, description: IMAGE },
        { value: "no", label: IMAGE },
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

describe("the agent's text is rendered as text, never as markup", () => {
  const html = renderForm(hostile, { values: { answer: IMAGE }, fieldErrors: { answer: [SCRIPT] }, formErrors: [IMAGE] });

  it("plants no script element and no image element", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
  });

  it("shows the planted tags as visible, escaped text", () => {
    expect(html).toContain("&lt;script&gt;window.pwned = 1&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;window.pwned = 1&quot;&gt;");
  });

  it("keeps an option value with markup inside its quoted attribute", () => {
    expect(html).toContain('value="&lt;script&gt;window.pwned = 1&lt;/script&gt;"');
    const tags = ["form", "input", "label", "span", "p", "li", "legend", "fieldset", "div", "h2", "select", "option"];
    const attributeNames = tags.flatMap((tag) => elements(html, tag)).flatMap((element) => Object.keys(element.attributes));
    expect(attributeNames.filter((name) => /^on/i.test(name))).toEqual([]);
  });
});
