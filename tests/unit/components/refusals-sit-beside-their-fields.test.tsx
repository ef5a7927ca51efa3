import { describe, expect, it } from "vitest";

import { specFromSchema } from "@/lib/questions";

import { byId, elements, inputNamed, renderForm, textOf } from "./form-markup";
import { EveryKind, Reimbursement } from "./questionnaires";

function describedText(html: string, path: string): string[] {
  return (inputNamed(html, path).attributes["aria-describedby"] ?? "").split(" ").filter(Boolean).map((id) => textOf(byId(html, id).inner));
}

describe("refusals sit beside their fields", () => {
  it("shows a refusal by full path on that field, tied to its input and marking it invalid", () => {
    const html = renderForm(specFromSchema(EveryKind), { values: {}, fieldErrors: { "address.street.name": ["Name the street."] } });
    const input = inputNamed(html, "address.street.name");
    expect(input.attributes["aria-invalid"]).toBe("true");
    expect(describedText(html, "address.street.name")).toContain("Name the street.");
    expect(inputNamed(html, "address.city").attributes["aria-invalid"]).toBeUndefined();
    expect(html.indexOf("Name the street.")).toBeGreaterThan(input.at);
  });

  it("ties a refusal of a radio group to every radio in it", () => {
    const html = renderForm(specFromSchema(Reimbursement), { values: {}, fieldErrors: { method: ["Choose how to be paid."] } });
    const radios = elements(html, "input").filter((input) => input.attributes.name === "method");
    expect(radios).toHaveLength(3);
    for (const radio of radios) {
      expect(radio.attributes["aria-invalid"]).toBe("true");
      expect((radio.attributes["aria-describedby"] ?? "").split(" ").map((id) => textOf(byId(html, id).inner))).toContain("Choose how to be paid.");
    }
  });

  it("puts form-level refusals and refusals on no question in a banner with role alert", () => {
    const html = renderForm(specFromSchema(Reimbursement), { values: {}, formErrors: ["Urgent claims need a bank transfer."], fieldErrors: { "attendees.9": ["No such attendee."] } });
    const banner = elements(html, "div").find((div) => div.attributes.role === "alert");
    expect(banner).toBeDefined();
    const text = textOf(html.slice(banner?.at ?? 0, html.indexOf("<fieldset")));
    expect(text).toContain("Urgent claims need a bank transfer.");
    expect(text).toContain("No such attendee.");
  });

  it("says there are more checks after these when the server says so", () => {
    const html = renderForm(specFromSchema(Reimbursement), { values: {}, fieldErrors: { currency: ["Use a three-letter currency code, like EUR."] }, moreChecksAfterThese: true });
    expect(textOf(html)).toContain("There are more checks after these.");
  });

  it("shows the attempt label it is given", () => {
    const html = renderForm(specFromSchema(Reimbursement), { values: {}, fieldErrors: { currency: ["Use a three-letter currency code, like EUR."] }, attemptLabel: "attempt 2 of 3" });
    expect(textOf(html)).toContain("Attempt 2 of 3");
  });

  it("shows no banner and no invalid field before anything was submitted", () => {
    const html = renderForm(specFromSchema(Reimbursement));
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain("aria-invalid");
  });
});
