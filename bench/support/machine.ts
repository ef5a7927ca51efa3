import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import postgres from "postgres";

// Read when a benchmark imports this module, i.e. as it begins.
const startLoad = loadavg();

/** The commit the code under measurement is at, and whether the working tree differs from it. */
function codeVersion(): string {
  try {
    const run = (args: string[]) => execFileSync("git", args, { cwd: path.join(import.meta.dirname, "..", ".."), encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const commit = run(["rev-parse", "--short", "HEAD"]);
    // The figures being written (by this run's earlier benchmarks) are not a change to the code measured.
    const changed = run(["status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/results", ":!bench/RESULTS.md"]).length > 0;
    return `${commit}${changed ? " with uncommitted changes" : ""}`;
  } catch {
    return "unknown (not a git checkout)";
  }
}

/**
 * What a figure was measured on: the date, the cores, the memory, Node's and PostgreSQL's
 * versions, the machine's load when the benchmark began (these machines are shared) and the code's commit.
 */
export async function describeMachine(postgresUrl?: string): Promise<string> {
  const cores = cpus();
  let server = "not used";
  if (postgresUrl) {
    const client = postgres(postgresUrl, { max: 1, onnotice: () => {} });
    try {
      const [row] = await client<{ version: string; fsync: string }[]>`select version(), current_setting('fsync') as fsync`;
      server = `${row!.version.split(" on ")[0]} (fsync ${row!.fsync}, loopback)`;
    } finally {
      await client.end();
    }
  }
  // PGlite's package exports no package.json, so it is read from the installed folder.
  const manifest = path.join(import.meta.dirname, "..", "..", "node_modules", "@electric-sql", "pglite", "package.json");
  const pglite = (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node ${process.version}; PostgreSQL: ${server}; PGlite ${pglite}`,
    `- Load average when the benchmark began: ${startLoad.map((value) => value.toFixed(2)).join(", ")} (1, 5, 15 min); now ${loadavg().map((value) => value.toFixed(2)).join(", ")}`,
    `- Code: ${codeVersion()}`,
  ].join("\n");
}
