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

/**
 * The exact command that produced a section: `npm run bench -- <name>`, preceded by the benchmark
 * settings (BENCH_*, PARLEY_BENCH_*) this run had in its environment.
 */
export function benchCommand(name: string): string {
  const settings = Object.entries(process.env)
    .filter(([key]) => (key.startsWith("BENCH_") && key !== "BENCH_POSTGRES_URL") || key.startsWith("PARLEY_BENCH_"))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`);
  return [...settings, "npm run bench --", name].join(" ");
}

/** A whole-number setting from the environment (`BENCH_ROUNDS=200`), or its default. */
export function setting(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not ${raw}`);
  return value;
}
