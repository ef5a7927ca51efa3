import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { clientHintSchema, NEEDS_ANSWER_HINT } from "@/components/questions/client-hints";
import { answeredBySwitch, type QuestionSpec, specFromSchema, validateFormAnswer } from "@/lib/questions";

import { elements, renderForm } from "./form-markup";

const Tricky = z.object({
  code: z.string().regex(/ab+c/).describe("Code"),
  short: z.string().max(3).describe("Short"),
  score: z.number().min(1).max(10).describe("Score"),
  positive: z.number().gt(0).describe("Positive"),
  count: z.int().min(0).max(3).optional().describe("Count"),
  when: z.iso.date().describe("When"),
  names: z.array(z.string()).max(2).describe("Names"),
  picks: z.array(z.enum(["a", "b", "c"])).min(1).describe("Picks"),
  flag: z.boolean().describe("Flag"),
  notify: z.boolean().default(false).describe("Notify"),
  label: z.string().default("x").describe("Label"),
  extra: z.object({ city: z.string().describe("City") }).optional().describe("Extra"),
});

/** The values react-hook-form holds for a posted form: nested by path, a checkbox group as a list, a switch as a boolean, a radio group as its choice. */
function formValues(spec: QuestionSpec, form: URLSearchParams): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of spec.fields) {
    const entries = form.getAll(field.path);
    // A radio group holds one choice: the one the server reads, the last posted.
    const choice = field.kind === "boolean" ? entries.findLast((entry) => entry.trim() !== "") : entries.at(-1);
    const value = field.kind === "multi-choice" ? entries : answeredBySwitch(field) ? entries.includes("on") : choice;
    const segments = field.path.split(".");
    let node = values;
    for (const segment of segments.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
    node[segments.at(-1) ?? ""] = value;
  }
  return values;
}

describe("the browser's hints never refuse what the server accepts", () => {
  const spec = specFromSchema(Tricky);
  const hints = clientHintSchema(spec);

  /** An answer at the edge of what the server accepts, for each field (by path). */
  const EDGES: [string, string][] = [
    ["code", "  xabbbcx  "],
    ["short", "  abc  "],
    ["score", "10"],
    ["positive", "0.001"],
    ["count", ""],
    ["when", "2025-02-28"],
    ["names", "Ana, , Ben"],
    ["picks", "b"],
    ["flag", "no"],
    ["label", ""],
    ["extra.city", ""],
  ];

  it("gives no hint on answers at the edges the server accepts", async () => {
    const form = new URLSearchParams(EDGES);
    expect((await validateFormAnswer(Tricky, form, spec)).ok).toBe(true);
    expect(hints.safeParse(formValues(spec, form)).success).toBe(true);
  });

  it("never hints where the server accepts, field by field, for any text typed", async () => {
    const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("", " ", "0", "1", "10", "10.5", "-1", " 5 ", "1e1", "abc", "xabcx", "2025-01-31", "a,b", "a, b, c", "none", "-", "yes", "no", "on"));
    for (const [name, schema] of Object.entries(Tricky.shape)) {
      const Single = z.object({ [name]: schema });
      const single = specFromSchema(Single);
      const singleHints = clientHintSchema(single);
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 3 }), async (entries) => {
          const path = single.fields[0]?.path ?? name;
          const form = new URLSearchParams(entries.map((entry): [string, string] => [path, entry]));
          if (!(await validateFormAnswer(Single, form, single)).ok) return;
          accepted += 1;
          expect(singleHints.safeParse(formValues(single, form)).success).toBe(true);
        }),
        // The field's edge answer is always among the runs, so every field meets an accepted answer whatever the seed.
        { numRuns: 150, examples: [[[EDGES.find(([path]) => path === (single.fields[0]?.path ?? name))?.[1] ?? ""]]] },
      );
      // The property is about accepted answers: it must have met some.
      expect(accepted, name).toBeGreaterThan(0);
    }
  });

  it("does hint at what the server would certainly refuse", () => {
    const result = hints.safeParse(formValues(spec, new URLSearchParams([["score", "11"], ["short", "abcd"], ["when", "31/01/2025"]])));
    const messages = result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(messages).toEqual(expect.arrayContaining(["score: At most 10, please.", "short: At most 3 characters.", `code: ${NEEDS_ANSWER_HINT}`]));
    expect(messages.some((message) => message.startsWith("when: "))).toBe(true);
    // A required field inside an optional object may be left out with it.
    expect(messages.some((message) => message.startsWith("extra.city"))).toBe(false);
  });

  it("leaves submitting to the server: the form is novalidate and no input is required", () => {
    const html = renderForm(spec);
    expect(elements(html, "form")[0]?.attributes).toHaveProperty("noValidate");
    const controls = [...elements(html, "input"), ...elements(html, "select")];
    expect(controls.filter((control) => "required" in control.attributes || "pattern" in control.attributes)).toEqual([]);
  });
});
