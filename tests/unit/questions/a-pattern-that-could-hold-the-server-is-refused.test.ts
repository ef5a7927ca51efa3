import { describe, expect, it } from "vitest";
import { backtrackingRisk, schemaFromJsonSchema } from "@/lib/questions";

const schemaWith = (pattern: string) => ({ type: "object", properties: { code: { type: "string", pattern } }, required: ["code"] });

describe("a caller's pattern", () => {
  it.each(["^(a+)+$", "^(a*)*$", "(\\w+\\s?)*$", "^(.*,)+$", "^([a-z]+\\d*){2,}$", "^((ab)+c?)+$", "^(a)\\1$", "^(?<x>a)\\k<x>$", "^(?:[a-z]+)+$", "^(-.*)+$", "^([a-z,]+,)+$"])(
    "%s, which can take seconds to check on a short answer, is refused on its pattern",
    (pattern) => {
      const result = schemaFromJsonSchema(schemaWith(pattern));
      expect(result).toMatchObject({ ok: false, path: "properties.code.pattern" });
      expect(result.ok ? "" : result.message).toMatch(/very long to check/);
    },
  );

  it.each(["^[A-Z]{3}$", "^(foo|bar)+$", "^\\d{4}-\\d{2}-\\d{2}$", "^[a-z]+(-[a-z]+)*$", "^(\\+|-)?\\d+$", "^[^@\\s]+@[^@\\s]+$", "^(ab){1,3}$", "^\\u{1F600}+$", "^[(+*)]+$", "^\\(\\d+\\)$", "^(?:[A-Za-z0-9_'+\\-]+\\.)*[a-z]+@example\\.com$", "^([a-z]+\\.)+com$"])(
    "%s is taken",
    (pattern) => {
      expect(backtrackingRisk(pattern)).toBeUndefined();
      expect(schemaFromJsonSchema(schemaWith(pattern)).ok).toBe(true);
    },
  );
});
