import { afterEach, describe, expect, it } from "vitest";
import { createApiKey, listKeys } from "@/lib/api-keys";
import { AppError } from "@/lib/errors";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("a key's name (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is refused when empty, too long, or not one line of plain text, and nothing is stored", async () => {
    database = await createTestDatabase(kind);
    const refused = ["", "   ", "x".repeat(81), "a\u0000b", "two\nlines", "tab\there", "bell\u0007", "evil\u202Egnp.exe", "\u2066isolate\u2069"];
    for (const name of refused) {
      const error = await createApiKey(database.db, { kind: "agent", name, by: null }).catch((caught: unknown) => caught);
      expect(error, JSON.stringify(name)).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("invalid_input");
    }
    expect(await listKeys(database.db, "agent")).toEqual([]);
  });

  it("is kept trimmed, up to 80 characters, in any script", async () => {
    database = await createTestDatabase(kind);
    for (const name of ["  Deploy bot  ", "x".repeat(80), "Économe 🤖 会计"]) {
      const { key } = await createApiKey(database.db, { kind: "agent", name, by: null });
      expect(key.name).toBe(name.trim());
    }
  });
});
