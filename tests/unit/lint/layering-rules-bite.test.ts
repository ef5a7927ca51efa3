import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The layering (docs/architecture.md, "Layers") is enforced by `npm run lint`: these plant imports
// that break it and check the lint refuses them with the rule that says why, and that a legal one
// passes. ESLint runs with the repository's own eslint.config.mjs.

const root = path.resolve(import.meta.dirname, "../../..");
const LINT_TIMEOUT = 180_000;

const RESTRICTED = "import-x/no-restricted-paths";
const CYCLE = "import-x/no-cycle";
const TYPE_CYCLE = "parley/no-type-cycle";

let eslint: ESLint;
/** Temporary files (a cycle needs both ends on disk); removed in afterAll, whatever happened. */
const plantedDir = path.join(root, "lib", `__planted-layering-${randomUUID()}`);

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

afterAll(() => {
  rmSync(plantedDir, { recursive: true, force: true });
});

/** Lints `code` as if it were the file at `file` (relative to the repository root); nothing is written. */
async function lintAs(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages;
}

function rulesOf(messages: readonly Linter.LintMessage[]): (string | null)[] {
  return messages.map((message) => message.ruleId);
}

describe("the layering rules", () => {
  it(
    "refuse db/ importing lib/, even a type",
    async () => {
      const value = await lintAs("db/queries/__planted.ts", `import { isUuid } from "@/lib/ids";\n\nexport const planted = isUuid;\n`);
      expect(rulesOf(value)).toContain(RESTRICTED);
      const relative = await lintAs("db/schema/__planted.ts", `import { isUuid } from "../../lib/ids";\n\nexport const planted = isUuid;\n`);
      expect(rulesOf(relative)).toContain(RESTRICTED);
      const typeOnly = await lintAs("db/__planted.ts", `import type { Registry } from "@/lib/registry";\n\nexport type Planted = Registry;\n`);
      expect(rulesOf(typeOnly)).toContain(RESTRICTED);
    },
    LINT_TIMEOUT,
  );

  it(
    "refuse two lib/ files that import each other",
    async () => {
      mkdirSync(plantedDir, { recursive: true });
      const dir = path.relative(root, plantedDir).split(path.sep).join("/");
      writeFileSync(path.join(plantedDir, "a.ts"), `import { b } from "./b";\n\nexport const a = (): number => b() + 1;\n`);
      writeFileSync(path.join(plantedDir, "b.ts"), `import { a } from "@/${dir}/a";\n\nexport const b = (): number => a() - 1;\n`);
      const results = await eslint.lintFiles([path.join(plantedDir, "a.ts"), path.join(plantedDir, "b.ts")]);
      expect(results).toHaveLength(2);
      for (const result of results) expect(rulesOf(result.messages)).toContain(CYCLE);
    },
    LINT_TIMEOUT,
  );

  it(
    "refuse two lib/ files that import each other's types, and tell it once for a cycle of values",
    async () => {
      const typesDir = path.join(plantedDir, "types");
      mkdirSync(typesDir, { recursive: true });
      const dir = path.relative(root, typesDir).split(path.sep).join("/");
      writeFileSync(path.join(typesDir, "a.ts"), `import type { B } from "./b";\n\nexport interface A {\n  b?: B;\n}\n`);
      writeFileSync(path.join(typesDir, "b.ts"), `import { type A } from "@/${dir}/a";\n\nexport interface B {\n  a?: A;\n}\n`);
      const results = await eslint.lintFiles([path.join(typesDir, "a.ts"), path.join(typesDir, "b.ts")]);
      expect(results).toHaveLength(2);
      for (const result of results) expect(rulesOf(result.messages)).toEqual([TYPE_CYCLE]);
      // The same types from a third module both import: no cycle.
      writeFileSync(path.join(typesDir, "shared.ts"), `export interface A {\n  b?: B;\n}\n\nexport interface B {\n  a?: A;\n}\n`);
      const a = await lintAs(`${dir}/a.ts`, `import type { B } from "./shared";\n\nexport type A = { b?: B };\n`);
      expect(a).toEqual([]);
      // A cycle of values alone: import-x/no-cycle's, not reported a second time.
      writeFileSync(path.join(typesDir, "a.ts"), `import { b } from "./b";\n\nexport const a = (): unknown => b;\n`);
      const valueCycle = await lintAs(`${dir}/b.ts`, `import { a } from "./a";\n\nexport const b = (): unknown => a;\n`);
      expect(rulesOf(valueCycle)).toEqual([CYCLE]);
    },
    LINT_TIMEOUT,
  );

  it(
    "refuse a page querying the database",
    async () => {
      const messages = await lintAs(
        "app/(app)/__planted/page.tsx",
        `import { getDb } from "@/lib/database";\nimport { listUsers } from "@/db/queries/users";\n\nexport default async function PlantedPage() {\n  const people = await listUsers(await getDb());\n  return <p>{people.length}</p>;\n}\n`,
      );
      expect(messages.filter((message) => message.ruleId === RESTRICTED).map((message) => message.message)).toEqual([
        expect.stringContaining("@/db/queries/users"),
      ]);
    },
    LINT_TIMEOUT,
  );

  it(
    "refuse lib/ importing an example, or the registry file anywhere but lib/registry/configured.ts",
    async () => {
      const example = await lintAs("lib/__planted.ts", `import { expenseReview } from "@/examples/expense-review";\n\nexport const planted = expenseReview;\n`);
      expect(rulesOf(example)).toContain(RESTRICTED);
      const registryFile = await lintAs("lib/runs/__planted.ts", `import config from "@/parley.config";\n\nexport const planted = config;\n`);
      expect(rulesOf(registryFile)).toContain(RESTRICTED);
      const [configured] = await eslint.lintFiles([path.join(root, "lib/registry/configured.ts")]);
      expect(configured!.messages).toEqual([]);
    },
    LINT_TIMEOUT,
  );

  it(
    "refuse the client package importing anything of the app, or Next.js, and let it import zod",
    async () => {
      for (const [from, name] of [
        ["@/lib/ids", "isUuid"],
        ["@/db/schema", "NOTHING_REASONS"],
        ["@/app/api/v1/asks/route", "POST"],
        ["@/components/when", "When"],
        ["@/examples/expense-review", "expenseReview"],
        ["../../../lib/errors", "AppError"],
      ] as const) {
        const messages = await lintAs("packages/client/src/__planted.ts", `import { ${name} } from "${from}";\n\nexport const planted = ${name};\n`);
        expect(rulesOf(messages), from).toContain(RESTRICTED);
      }
      const typeOnly = await lintAs("packages/client/src/__planted.ts", `import type { AskView } from "@/lib/asks/api-schemas";\n\nexport type Planted = AskView;\n`);
      expect(rulesOf(typeOnly)).toContain(RESTRICTED);
      const next = await lintAs("packages/client/src/__planted.ts", `import { NextResponse } from "next/server";\n\nexport const planted = NextResponse;\n`);
      expect(rulesOf(next)).toContain("no-restricted-imports");
      const legal = await lintAs("packages/client/src/__planted.ts", `import type { z } from "zod";\nimport { ParleyApiError } from "./errors.js";\n\nexport type Planted = z.ZodObject;\nexport const planted = ParleyApiError;\n`);
      expect(legal).toEqual([]);
    },
    LINT_TIMEOUT,
  );

  it(
    "let lib/ import db/",
    async () => {
      const messages = await lintAs(
        "lib/__planted.ts",
        `import type { Db } from "@/db/client";\nimport { listUsers } from "@/db/queries/users";\n\nexport async function countPeople(db: Db): Promise<number> {\n  return (await listUsers(db)).length;\n}\n`,
      );
      expect(messages).toEqual([]);
    },
    LINT_TIMEOUT,
  );
});
