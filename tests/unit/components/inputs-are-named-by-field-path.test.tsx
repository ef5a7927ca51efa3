import { describe, expect, it } from "vitest";

import { rawFromFormAnswer, specFromSchema } from "@/lib/questions";

import { elements, inputNamed, posted, renderForm, textOf } from "./form-markup";
import { EveryKind } from "./questionnaires";

describe("inputs are named by field path", () => {
  const html = renderForm(specFromSchema(EveryKind));

  it("names every question's input after its full dotted path", () => {
    for (const path of ["note", "amount", "nights", "tags", "receipt", "spentOn", "comment", "address.city", "address.street.name"]) {
      expect(inputNamed(html, path).attributes.name).toBe(path);
    }
  });

  it("nests objects as fieldsets whose legend is the object's heading", () => {
    const legends = elements(html, "legend").map((legend) => textOf(legend.inner));
    expect(legends).toEqual(expect.arrayContaining(["Where", "Street"]));
    const where = html.indexOf("<legend>Where");
    const street = html.indexOf("<legend>Street");
    expect(where).toBeGreaterThan(-1);
    expect(street).toBeGreaterThan(where);
    // Street's fieldset closes before Where's: the inner one is inside the outer one.
    expect(html.slice(where).indexOf("Street name")).toBeLessThan(html.slice(where).indexOf("</fieldset></fieldset>"));
  });

  it("labels every input with its question", () => {
    const labels = elements(html, "label");
    for (const input of elements(html, "input")) {
      const id = input.attributes.id ?? "";
      const labelled = labels.some((label) => label.attributes.for === id) || input.attributes["aria-labelledby"] !== undefined;
      expect(labelled, `input ${id} (${input.attributes.name}) has a label`).toBe(true);
    }
    expect(textOf(labels.find((label) => label.attributes.for === inputNamed(html, "address.city").attributes.id)?.inner ?? "")).toBe("City");
  });

  it("posts through the server's own reader to the nested answer", () => {
    const form = posted(html, {
      typed: { [inputNamed(html, "address.city").attributes.id ?? ""]: "Lyon", [inputNamed(html, "address.street.name").attributes.id ?? ""]: "Rue Neuve" },
    });
    expect(rawFromFormAnswer(specFromSchema(EveryKind), form).raw).toMatchObject({ address: { city: "Lyon", street: { name: "Rue Neuve" } } });
  });
});
