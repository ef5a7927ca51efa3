import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEPENDENCY_PATCHES, describeMissingDependencyPatches, missingDependencyPatches } from "@/scripts/dependency-patches.mjs";
import { prepareServer } from "@/lib/startup";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** A folder holding a copy of every file the patches change, as installed here (patched). */
function copyOfPatchedFiles(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-patches-"));
  for (const { files } of DEPENDENCY_PATCHES) {
    for (const file of files) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      cpSync(path.join(ROOT, file), path.join(dir, file));
    }
  }
  return dir;
}

/** Takes a patch's patched text out of one file, leaving the rest of it as it is. */
function unpatch(dir: string, file: string, patchedText: string): void {
  const full = path.join(dir, file);
  const text = readFileSync(full, "utf8");
  expect(text).toContain(patchedText);
  writeFileSync(full, text.replace(patchedText, "/* as published */"));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the dependency patches", () => {
  it("are each listed with a patch file in patches/", () => {
    expect(DEPENDENCY_PATCHES.map(({ patch }) => patch)).toEqual(["patches/postgres+3.4.9.patch", "patches/next+16.4.6.patch"]);
    for (const { patch, files } of DEPENDENCY_PATCHES) {
      const text = readFileSync(path.join(ROOT, patch), "utf8");
      for (const file of files) expect(text).toContain(`+++ b/${file}`);
    }
  });

  it("are all applied in this installation's node_modules", () => {
    expect(missingDependencyPatches(ROOT)).toEqual([]);
    expect(describeMissingDependencyPatches(missingDependencyPatches(ROOT))).toBeNull();
  });

  it.each(DEPENDENCY_PATCHES.flatMap(({ patch, files, patchedTexts }) => files.flatMap((file) => patchedTexts.map((text) => [patch, file, text] as const))))(
    "are reported missing by name: %s when %s lacks one of its changes",
    (patch, file, patchedText) => {
      const dir = copyOfPatchedFiles();
      try {
        unpatch(dir, file, patchedText);
        const missing = missingDependencyPatches(dir);
        expect(missing.map((entry) => entry.patch)).toEqual([patch]);
        expect(missing[0]?.file).toBe(file);
        expect(describeMissingDependencyPatches(missing)).toMatch(new RegExp(`^the dependency patch ${patch.replace(/[+.]/g, "\\$&")} is not applied to ${file.replace(/[+.]/g, "\\$&")} \\(it fixes: .+\\)\\. Run npm install\\.$`));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("are reported missing, each by name, where the patched packages are not installed at all", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parley-patches-"));
    try {
      expect(missingDependencyPatches(dir).map((entry) => entry.patch)).toEqual(["patches/postgres+3.4.9.patch", "patches/next+16.4.6.patch"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("starting the server", () => {
  it("stops before opening the database, naming the patch, when one is not applied", async () => {
    const dir = copyOfPatchedFiles();
    try {
      const postgresPatch = DEPENDENCY_PATCHES[0]!;
      unpatch(dir, postgresPatch.files[0]!, postgresPatch.patchedTexts[0]!);
      vi.spyOn(process, "cwd").mockReturnValue(dir);
      const printed: string[] = [];
      await expect(prepareServer((line) => printed.push(line))).rejects.toThrow(
        "the dependency patch patches/postgres+3.4.9.patch is not applied to node_modules/postgres/src/connection.js (it fixes: postgres.js carries",
      );
      expect(printed).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
