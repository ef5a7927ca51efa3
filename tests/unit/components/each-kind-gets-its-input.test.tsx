import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema } from "@/lib/questions";

import { byId, elements, inputNamed, renderForm, textOf } from "./form-markup";
import { EveryKind } from "./questionnaires";

function hintOf(html: string, path: string): string {
  const ids = (inputNamed(html, path).attributes["aria-describedby"] ?? "").split(" ").filter((id) => id.endsWith("-hint"));
  return ids.map((id) => textOf(byId(html, id).inner)).join(" ");
}

describe("each field kind gets its input", () => {
  const html = renderForm(specFromSchema(EveryKind));

  it("gives text a maxlength from the schema's limit", () => {
    expect(inputNamed(html, "note").attributes).toMatchObject({ type: "text", maxLength: "40" });
    expect(hintOf(html, "note")).toBe("at most 40 characters");
  });

  it("states a text's limits in words, leaving out a least of one character that a required question already says", () => {
    const texts = renderForm(
      specFromSchema(z.object({ title: z.string().min(1).max(200).describe("Title"), code: z.string().length(3).describe("Code"), amount: z.string().min(1).describe("Amount") })),
    );
    expect([hintOf(texts, "title"), hintOf(texts, "code"), hintOf(texts, "amount")]).toEqual(["at most 200 characters", "exactly 3 characters", ""]);
  });

  it("gives numbers a numeric keyboard and states their limits, keeping the box a text box", () => {
    expect(inputNamed(html, "amount").attributes).toMatchObject({ type: "text", inputMode: "decimal" });
    expect(hintOf(html, "amount")).toBe("0–5000");
    expect(inputNamed(html, "nights").attributes).toMatchObject({ type: "text", inputMode: "numeric" });
    expect(hintOf(html, "nights")).toBe("a whole number · 1–14");
  });

  it("offers no digits-only keyboard when the number may be negative", () => {
    const signed = renderForm(specFromSchema(z.object({ delta: z.number().describe("Change") })));
    expect(inputNamed(signed, "delta").attributes.inputMode).toBeUndefined();
  });

  it("asks dates with the browser's date input", () => {
    expect(inputNamed(html, "spentOn").attributes.type).toBe("date");
  });

  it("asks a list of texts on one line with the hint to separate with commas", () => {
    const list = renderForm(specFromSchema(z.object({ guests: z.array(z.string()).describe("Guests") })));
    expect(inputNamed(list, "guests").attributes.type).toBe("text");
    expect(hintOf(list, "guests")).toBe("separate with commas");
  });

  it("asks several choices as a checkbox per option, each posting its value", () => {
    const boxes = elements(html, "input").filter((input) => input.attributes.name === "tags");
    expect(boxes.map((box) => [box.attributes.type, box.attributes.value])).toEqual([
      ["checkbox", "travel"],
      ["checkbox", "food"],
      ["checkbox", "hotel"],
    ]);
  });

  it("marks optional questions (optional) and no others", () => {
    const optional = elements(html, "span").filter((span) => span.attributes.class === "question-optional");
    expect(optional).toHaveLength(1);
    const label = elements(html, "label").find((candidate) => candidate.attributes.for === inputNamed(html, "nights").attributes.id);
    expect(textOf(label?.inner ?? "")).toBe("How many nights? (optional)");
  });

  it("offers an optional choice a way back to no answer", () => {
    const choice = renderForm(specFromSchema(z.object({ size: z.enum(["s", "m"]).optional().describe("Size") })));
    expect(elements(choice, "input").map((input) => input.attributes.value)).toEqual(["s", "m", ""]);
  });
});
