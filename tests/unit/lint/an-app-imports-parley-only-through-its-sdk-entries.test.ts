import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// An app (examples/, and the SDK's own test app in tests/integration/sdk) imports Parley only through
// `parley/workflows` and `parley/testing` (docs/sdk.md): these plant imports of the platform's own
// files and check the lint refuses each, naming the SDK; and that the SDK's entries, packages and
// the app's own files pass. ESLint runs with the repository's own eslint.config.mjs.

const root = path.resolve(import.meta.dirname, "../../..");
const LINT_TIMEOUT = 180_000;

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** Lints `code` as if it were the file at `file` (relative to the repository root); nothing is written. */
async function lintAs(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages;
}

describe("an app's imports of Parley", () => {
  it(
    "are refused when they name a platform file, by alias or by path, pointing to the SDK",
    async () => {
      for (const [file, from, name] of [
        ["examples/expense-review/__planted.ts", "@/lib/runtime", "defineWorkflow"],
        ["examples/expense-review/__planted.ts", "@/db/client", "queryRows"],
        ["examples/expense-review/__planted.ts", "../../lib/errors", "AppError"],
        ["examples/expense-review/__planted.ts", "../../db/schema", "users"],
        ["examples/expense-review/__planted.ts", "@/examples/expense-review/schema", "claims"],
        ["examples/deploy-approval/tests/__planted.test.ts", "@/tests/support/databases", "createTestDatabase"],
        ["examples/deploy-approval/tests/__planted.test.ts", "../../../tests/integration/runtime/clock", "manualClock"],
        ["tests/integration/sdk/purchase-approval/__planted.ts", "@/lib/registry", "defineApp"],
        ["tests/integration/sdk/purchase-approval/__planted.ts", "../../../../db/client", "queryRows"],
      ] as const) {
        const messages = await lintAs(file, `import { ${name} } from "${from}";\n\nexport const planted = ${name};\n`);
        expect(messages.length, `${file} importing ${from}`).toBeGreaterThan(0);
        for (const message of messages) expect(message.message, `${file} importing ${from}`).toContain("`parley/workflows`");
      }
    },
    LINT_TIMEOUT,
  );

  it(
    "are refused for a type alone",
    async () => {
      const messages = await lintAs("examples/expense-review/__planted.ts", `import type { Db } from "@/db/client";\n\nexport type Planted = Db;\n`);
      expect(messages.map((message) => message.message)).toContainEqual(expect.stringContaining("`parley/workflows`"));
    },
    LINT_TIMEOUT,
  );

  it(
    "pass through the SDK's entries, packages and the app's own files",
    async () => {
      const app = await lintAs(
        "examples/expense-review/__planted.ts",
        `import { eq } from "drizzle-orm";\nimport { defineWorkflow, type Db } from "parley/workflows";\nimport { z } from "zod";\nimport { claims } from "./schema";\n\nexport const planted = [eq, defineWorkflow, z, claims];\nexport type Planted = Db;\n`,
      );
      expect(app).toEqual([]);
      const test = await lintAs(
        "examples/expense-review/tests/__planted.test.ts",
        `import { createTestKit } from "parley/testing";\nimport { expenseReview } from "..";\n\nexport const planted = [createTestKit, expenseReview];\n`,
      );
      expect(test).toEqual([]);
    },
    LINT_TIMEOUT,
  );
});
