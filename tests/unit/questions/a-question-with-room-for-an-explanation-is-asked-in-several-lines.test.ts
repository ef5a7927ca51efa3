import { describe, expect, it } from "vitest";
import { z } from "zod";
import { asksForLongText, ONE_LINE_TEXT_MAX } from "@/lib/questions";
import { fieldOf } from "./field";
import { questionOf, refusalOf, objectOf } from "./json-schema";

describe("a free-text question with room for an explanation is asked in a box of several lines; the schema decides", () => {
  it("a text without a limit of its own is several lines", () => {
    expect(asksForLongText(fieldOf(z.string()))).toBe(true);
  });

  it("a text whose max leaves room for an explanation is several lines", () => {
    expect(asksForLongText(fieldOf(z.string().max(2_000)))).toBe(true);
  });

  it("a short max keeps it to one line", () => {
    expect(asksForLongText(fieldOf(z.string().max(ONE_LINE_TEXT_MAX)))).toBe(false);
  });

  it("a title's or a name's max (200 characters) keeps it to one line", () => {
    expect(asksForLongText(fieldOf(z.string().max(200)))).toBe(false);
  });

  it("a named format or a pattern keeps it to one line", () => {
    expect(asksForLongText(fieldOf(z.email()))).toBe(false);
    expect(asksForLongText(fieldOf(z.string().regex(/^[A-Z]{3}$/)))).toBe(false);
  });

  it("a default of one word (a code: the kind of answer expected) keeps it to one line; a sentence does not", () => {
    expect(asksForLongText(fieldOf(z.string().default("EUR")))).toBe(false);
    expect(asksForLongText(fieldOf(z.string().default("Nothing to add yet.")))).toBe(true);
  });

  it("the schema's own say wins: an amount checked by a refinement is one line, a short note it wants explained is several", () => {
    expect(asksForLongText(fieldOf(z.string().refine((text) => /^\d+(\.\d\d)?$/.test(text)).meta({ multiline: false })))).toBe(false);
    expect(asksForLongText(fieldOf(z.string().max(100).meta({ multiline: true })))).toBe(true);
  });

  it("a JSON Schema says the same with its \"multiline\" keyword", () => {
    expect(asksForLongText(questionOf({ type: "string", multiline: false }))).toBe(false);
    expect(asksForLongText(questionOf({ type: "string", maxLength: 100, multiline: true }))).toBe(true);
  });

  it("a JSON Schema's \"multiline\" that is not true or false is refused where it stands", () => {
    expect(refusalOf(objectOf({ why: { type: "string", multiline: "yes" } }))).toEqual({
      path: "properties.why.multiline",
      message: '"multiline" must be true (a box of several lines) or false (one line).',
    });
  });

  it("anything that is not free text is not", () => {
    expect(asksForLongText(fieldOf(z.number()))).toBe(false);
    expect(asksForLongText(fieldOf(z.enum(["a", "b"])))).toBe(false);
  });
});
