import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");

/** The `parley` command's own source: its entry and lib/terminal. */
const SOURCES = ["scripts/parley.ts", ...readdirSync(path.join(ROOT, "lib", "terminal")).filter((file) => file.endsWith(".ts")).map((file) => `lib/terminal/${file}`)];

describe("the terminal and the examples", () => {
  it("imports no example and names no example's workflow: it starts any registered workflow through the registry", () => {
    for (const file of SOURCES) {
      const source = readFileSync(path.join(ROOT, file), "utf8");
      expect(source, file).not.toMatch(/["']@\/examples\/|["'](\.\.\/)+examples\//);
      expect(source, file).not.toMatch(/\b(ReviewClaim|DeployApproval|reimburse)\b/i);
    }
  });
});
