import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";

import { fieldOf } from "./field";

describe("a list is one line separated by commas", () => {
  it("splits on commas and trims each item", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.string())), " Ana ,Ben,  Cy ")).toEqual({ ok: true, value: ["Ana", "Ben", "Cy"] });
  });

  it("drops empty items", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.string())), "Ana,, ,Ben,")).toEqual({ ok: true, value: ["Ana", "Ben"] });
  });

  it("reads a line of nothing but commas as missing when the list is optional", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.string()).optional()), " , ,")).toEqual({ ok: true, value: undefined });
  });

  it("reads a line of nothing but commas as the empty list when the list is required", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.string())), " , ,")).toEqual({ ok: true, value: [] });
  });

  it("keeps repeated free-text items, which may be meant", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.string())), "a, a")).toEqual({ ok: true, value: ["a", "a"] });
  });

  it("reads each item of a number list as a number", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.number())), "1, 2.5")).toEqual({ ok: true, value: [1, 2.5] });
  });

  it("names the item that is not a number", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.number())), "1, two")).toEqual({
      ok: false,
      message: 'Item 2: "two" is not a number. Type digits, like 12 or 3.5.',
    });
  });

  it("takes choices by numbers like 1,3", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.enum(["a", "b", "c"]))), "1,3")).toEqual({ ok: true, value: ["a", "c"] });
  });

  it("takes choices by words, any case, mixed with numbers", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.enum(["red", "green", "blue"]))), "BLUE, 1")).toEqual({ ok: true, value: ["blue", "red"] });
  });

  it("deduplicates choices named twice", () => {
    expect(parseTextAnswer(fieldOf(z.array(z.enum(["a", "b"]))), "a, 1, A")).toEqual({ ok: true, value: ["a"] });
  });

  it("refuses an unknown choice by name", () => {
    const parsed = parseTextAnswer(fieldOf(z.array(z.enum(["a", "b"]))), "a, z");
    expect(parsed).toEqual({ ok: false, message: '"z" is not one of the choices. Type its number or its word: 1) a, 2) b.' });
  });
});
