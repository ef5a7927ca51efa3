import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentInTemporaryFolder, runTool } from "./openapi-tools";

/** One problem a validator found, in words a failing test can show. */
interface Problem {
  rule: string;
  where: string;
  message: string;
}

describe("the OpenAPI document, checked by validators nobody here wrote", () => {
  let folder: Awaited<ReturnType<typeof documentInTemporaryFolder>>;
  beforeAll(async () => {
    folder = await documentInTemporaryFolder();
  });
  afterAll(() => folder?.remove());

  it("has no error by Redocly's recommended rules", async () => {
    const ran = await runTool(".bin/redocly", ["lint", "--format=json", "openapi.json"], folder.folder);
    const report = JSON.parse(ran.stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    const errors: Problem[] = report.problems
      .filter((problem) => problem.severity === "error")
      .map((problem) => ({ rule: problem.ruleId, where: problem.location[0]?.pointer ?? "", message: problem.message }));
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(ran.code).toBe(0);
  });

  it("has no error by Spectral's OpenAPI ruleset (spectral:oas)", async () => {
    await writeFile(path.join(folder.folder, ".spectral.yaml"), 'extends: ["spectral:oas"]\n');
    const ran = await runTool(".bin/spectral", ["lint", "--ruleset", ".spectral.yaml", "--format", "json", "--quiet", "openapi.json"], folder.folder);
    // Spectral prints nothing at all when it finds nothing.
    const results = (ran.stdout.trim() === "" ? [] : JSON.parse(ran.stdout)) as { code: string; severity: number; message: string; path: string[] }[];
    // Severity 0 is an error; 1–3 are warnings, information and hints.
    const errors: Problem[] = results.filter((result) => result.severity === 0).map((result) => ({ rule: result.code, where: result.path.join("."), message: result.message }));
    expect(errors).toEqual([]);
    expect(ran.code, ran.stderr).toBe(0);
  });
});
