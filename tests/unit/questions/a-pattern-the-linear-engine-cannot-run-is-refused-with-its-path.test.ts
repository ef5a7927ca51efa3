import { describe, expect, it } from "vitest";
import { schemaFromJsonSchema } from "@/lib/questions";

const schemaWith = (pattern: string) => ({ type: "object", properties: { code: { type: "string", pattern } }, required: ["code"] });

describe("a caller's pattern that the linear-time engine cannot run", () => {
  it.each([
    ["^(?=.*\\d)\\w+$", /looks ahead or behind/],
    ["^(?!x)\\w+$", /looks ahead or behind/],
    ["(?<=\\$)\\d+", /looks ahead or behind/],
    ["(?<!-)\\d+", /looks ahead or behind/],
    ["^(a)\\1$", /refers back to a group/],
    ["^(?<x>a)\\k<x>$", /refers back to a group/],
    ["^a{1001}$", /more than 1000 times/],
    ["^(a{100}){100}$", /more than 1000 times/],
    ["^\\p{Alphabetic}+$", /\\p\{Alphabetic\}, a Unicode property/],
    ["^[\\S,]+$", /\\S inside/],
  ])("%s is refused on its pattern, saying why", (pattern, why) => {
    const result = schemaFromJsonSchema(schemaWith(pattern));
    expect(result).toMatchObject({ ok: false, path: "properties.code.pattern" });
    expect(result.ok ? "" : result.message).toMatch(why);
  });

  it.each(["^[A-Z]{3}$", "^(foo|bar)+$", "^\\d{4}-\\d{2}-\\d{2}$", "^[a-z]+(-[a-z]+)*$", "^(\\+|-)?\\d+$", "^[^@\\s]+@[^@\\s]+$", "^(ab){1,3}$", "^\\u{1F600}+$", "^[(+*)]+$", "^\\(\\d+\\)$", "^(?:[A-Za-z0-9_'+\\-]+\\.)*[a-z]+@example\\.com$", "^([a-z]+\\.)+com$", "^\\p{L}[\\p{L}\\p{M} '-]*$", "^(?<year>\\d{4})$"])(
    "%s is taken",
    (pattern) => {
      expect(schemaFromJsonSchema(schemaWith(pattern)).ok).toBe(true);
    },
  );
});
