import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SOURCES } from "@/scripts/build-if-needed.mjs";

/** The top-level file or folder each of parley.config.ts's imports lives in. */
function registryImportRoots(): string[] {
  const text = readFileSync("parley.config.ts", "utf8");
  return [...text.matchAll(/from\s+"(?:@\/|\.\/)([^"/]+)/g)].map((match) => match[1]!);
}

describe("npm start's rebuild check", () => {
  it("watches the registry file itself", () => {
    expect(SOURCES).toContain("parley.config.ts");
  });

  it("watches every folder the registry imports an app from", () => {
    const roots = registryImportRoots();
    expect(roots.length).toBeGreaterThan(0);
    for (const root of roots) expect(SOURCES, `${root} (imported by parley.config.ts)`).toContain(root);
  });
});
