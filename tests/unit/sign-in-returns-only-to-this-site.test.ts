import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "@/lib/server/callback-path";

describe("the page sign-in returns to", () => {
  it("is the page the visitor asked for", () => {
    expect(safeCallbackPath("/admin")).toBe("/admin");
    expect(safeCallbackPath("/questions/42?tab=context")).toBe("/questions/42?tab=context");
    expect(safeCallbackPath("/runs?state=open#latest")).toBe("/runs?state=open#latest");
  });

  it("is never another site", () => {
    for (const hostile of ["https://evil.test/", "//evil.test/x", "/\\evil.test", "javascript:alert(1)", "", undefined, ["/admin"]]) {
      expect(safeCallbackPath(hostile)).toBe("/");
    }
  });

  it("is never another site when a TAB, CR or LF follows the slash (browsers drop them)", () => {
    // What `?callbackUrl=/%09/evil.example` is once the query is decoded.
    for (const hostile of ["/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "/\r\n/evil.example", "\t//evil.example", "/\t\\evil.example"]) {
      const path = safeCallbackPath(hostile);
      expect(new URL(path, "https://parley.example").origin).toBe("https://parley.example");
      expect(path).not.toMatch(/^\/\//);
    }
  });

  it("is never another site by a backslash, a dot segment or a path that resolves to two slashes", () => {
    for (const hostile of ["/\\\\evil.example", "/\\/evil.example", "/.//evil.example", "/a/../..//evil.example", "/%2e//evil.example"]) {
      const path = safeCallbackPath(hostile);
      expect(new URL(path, "https://parley.example").origin).toBe("https://parley.example");
      expect(path).not.toMatch(/^\/\//);
    }
  });

  it("holds nothing a Location header cannot carry, so a control character is not a server error", () => {
    for (const odd of ["/inbox\n", "/a\u0000b", "/x\u007f", "/caf\u00e9", "/%0a/x", "/%09/evil.example"]) {
      const path = safeCallbackPath(odd);
      expect(path).toMatch(/^\/[\x21-\x7e]*$/);
      expect(() => new Headers({ location: path })).not.toThrow();
    }
  });

  it("keeps percent-encoded text encoded rather than decoding it into a second slash", () => {
    expect(safeCallbackPath("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });

  it("is never the sign-in page itself", () => {
    expect(safeCallbackPath("/login?callbackUrl=/admin")).toBe("/");
    expect(safeCallbackPath("/\tlogin")).toBe("/");
  });
});
