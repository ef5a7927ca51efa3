import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The runtime and the questions decide in codes and kinds; only the HTTP edge (lib/server) knows statuses.

const root = path.resolve(import.meta.dirname, "../../..");

async function rulesFor(file: string, code: string): Promise<(string | null)[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId);
}

describe("the pure core and the HTTP edge", () => {
  it(
    "the runtime importing the HTTP statuses is refused, by alias or by path; the HTTP edge may",
    async () => {
      const byAlias = `import { httpStatusOf } from "@/lib/server/http-status";\n\nexport const planted = httpStatusOf("conflict");\n`;
      expect(await rulesFor("lib/runtime/__planted.ts", byAlias)).toContain("no-restricted-imports");
      expect(await rulesFor("lib/questions/__planted.ts", `import { httpStatusOf } from "../server/http-status";\n\nexport const planted = httpStatusOf("conflict");\n`)).toContain("no-restricted-imports");
      expect(await rulesFor("lib/server/__planted.ts", byAlias)).not.toContain("no-restricted-imports");
    },
    120_000,
  );
});
