import { describe, expect, it } from "vitest";
import { matchPrefix, shortIds } from "@/lib/terminal/short-ids";

describe("the short ids `parley inbox` shows", () => {
  const a = "019aeb3c-8f2a-7a10-8000-000000000001";
  const b = "019aeb3c-8f2a-7b20-8000-000000000002";
  const c = "019aff00-0000-7000-8000-000000000003";

  it("is eight characters where they tell the question apart, longer where another begins alike, never ending in a dash", () => {
    const short = shortIds([a, b, c]);
    expect(short.get(c)).toBe("019aff00");
    expect(short.get(a)).toBe("019aeb3c-8f2a-7a");
    expect(short.get(b)).toBe("019aeb3c-8f2a-7b");
    expect(shortIds([a]).get(a)).toBe("019aeb3c");
  });

  it("is matched back to its question, in either case; a beginning several share names them all", () => {
    expect(matchPrefix("019AEB3C-8F2A-7B", [a, b, c])).toEqual({ status: "one", id: b });
    expect(matchPrefix("019aeb3c", [a, b, c])).toEqual({ status: "several", ids: [a, b] });
    expect(matchPrefix("fff", [a, b, c])).toEqual({ status: "none" });
  });
});
