import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema } from "@/lib/questions";

import { byId, elements, inputNamed, renderForm, textOf } from "./form-markup";

/** The hint under a field, as the person reads it ("" when there is none). */
function hintOf(html: string, path: string): string {
  const ids = (inputNamed(html, path).attributes["aria-describedby"] ?? "").split(" ").filter((id) => id.endsWith("-hint"));
  return ids.map((id) => textOf(byId(html, id).inner)).join(" ");
}

/** A field's label text, as the person reads it. */
function labelOf(html: string, path: string): string {
  const id = inputNamed(html, path).attributes.id;
  const label = elements(html, "label").find((element) => element.attributes.for === id);
  return textOf(label?.inner ?? "");
}

describe("a field's label and hint say each thing once, in the person's terms", () => {
  it("says (optional) once when the question's own words end with it", () => {
    const html = renderForm(specFromSchema(z.object({ comment: z.string().optional().describe("Anything to add? (optional)") })));
    expect(labelOf(html, "comment")).toBe("Anything to add? (optional)");
  });

  it("says no 'default:' for a default that is empty", () => {
    const html = renderForm(specFromSchema(z.object({ teams: z.array(z.string()).default([]).describe("Which teams should hear of it?") })));
    expect(hintOf(html, "teams")).toBe("separate with commas");
  });

  it("says 'separate with commas' only when the question does not say it already", () => {
    const html = renderForm(specFromSchema(z.object({ teams: z.array(z.string()).describe("Which teams (comma-separated)?") })));
    expect(hintOf(html, "teams")).toBe("");
  });

  it("gives a date picker no YYYY-MM-DD, which its own format may not be, and says its limits as days", () => {
    const html = renderForm(specFromSchema(z.object({ on: z.date().min(new Date("2026-12-05T00:00:00Z")).describe("Deploy on") })));
    expect(hintOf(html, "on")).toBe("at least 5 Dec 2026");
  });
});
