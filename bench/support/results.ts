import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const RESULTS_DIR = path.join(import.meta.dirname, "..", "results");

/**
 * Writes one benchmark's section of bench/RESULTS.md (bench/results/<name>.md); `npm run bench`
 * puts the sections together, in order, under one header.
 */
export function writeSection(name: string, markdown: string): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, `${name}.md`), `${markdown.trim()}\n`);
  console.log(`\n${markdown.trim()}\n`);
}

/** A markdown table. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
