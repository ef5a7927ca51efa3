import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import path from "node:path";
import postgres from "postgres";

/** What a figure was measured on: the date, the cores, the memory, Node's and PostgreSQL's versions. */
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
  ].join("\n");
}
