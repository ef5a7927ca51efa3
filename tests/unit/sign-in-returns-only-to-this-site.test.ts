import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "@/lib/server/callback-path";

describe("the page sign-in returns to", () => {
  it("is the page the visitor asked for", () => {
    expect(safeCallbackPath("/admin")).toBe("/admin");
    expect(safeCallbackPath("/questions/42?tab=context")).toBe("/questions/42?tab=context");
  });

  it("is never another site", () => {
    for (const hostile of ["https://evil.test/", "//evil.test/x", "/\\evil.test", "javascript:alert(1)", "", undefined, ["/admin"]]) {
      expect(safeCallbackPath(hostile)).toBe("/");
    }
  });

  it("is never the sign-in page itself", () => {
    expect(safeCallbackPath("/login?callbackUrl=/admin")).toBe("/");
  });
});
