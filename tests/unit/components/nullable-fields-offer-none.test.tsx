import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema, validateFormAnswer } from "@/lib/questions";

import { elements, inputNamed, posted, renderForm, textOf } from "./form-markup";

const Nullable = z.object({
  comment: z.string().nullable().describe("Anything else?"),
  approved: z.boolean().nullable().describe("Approved?"),
  size: z.enum(["s", "m", "l"]).nullable().describe("Size"),
});

describe("nullable fields offer an explicit None", () => {
  const spec = specFromSchema(Nullable);
  const html = renderForm(spec);
  const none = (path: string) => elements(html, "input").find((input) => input.attributes.name === path && input.attributes.value === "none");

  it("offers None for text, yes/no and options, each posting none under the field's name", () => {
    for (const path of ["comment", "approved", "size"]) {
      const choice = none(path);
      expect(choice, path).toBeDefined();
      const label = elements(html, "label").find((candidate) => candidate.attributes.for === choice?.attributes.id);
      expect(textOf(label?.inner ?? "")).toBe("None");
    }
  });

  it("gives null when None is ticked, whatever is in the box", async () => {
    const form = posted(html, {
      typed: { [inputNamed(html, "comment").attributes.id ?? ""]: "typed anyway" },
      tick: ["comment", "approved", "size"].map((path) => none(path)?.attributes.id ?? ""),
    });
    expect(await validateFormAnswer(Nullable, form, spec)).toMatchObject({ ok: true, value: { comment: null, approved: null, size: null } });
  });

  it("keeps None apart from skipping: a nullable text left empty is missing, and refused", async () => {
    const form = posted(html, { tick: [none("approved")?.attributes.id ?? "", none("size")?.attributes.id ?? ""] });
    const result = await validateFormAnswer(Nullable, form, spec);
    expect(result.ok ? [] : Object.keys(result.fieldErrors)).toEqual(["comment"]);
  });

  it("ticks None again when a returned value was none", () => {
    const again = renderForm(spec, { values: { comment: ["", "none"], approved: "none", size: "none" } });
    const ticked = elements(again, "input").filter((input) => "checked" in input.attributes).map((input) => `${input.attributes.name}=${input.attributes.value}`);
    expect(ticked).toEqual(["comment=none", "approved=none", "size=none"]);
  });
});
