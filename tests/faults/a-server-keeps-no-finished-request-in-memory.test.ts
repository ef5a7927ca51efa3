import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { HttpClient } from "./support/http-client";
import { adminPostgresUrl } from "./support/prerequisites";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";

const PORT = 3159;
/** Pages rendered; each one that stayed reachable would hold its request, response and render. */
const REQUESTS = 600;
/**
 * Pages read at once. Renders that finish beside each other are what chained finished requests
 * together (React's abort reason, patched by patches/next+16.4.6.patch): unpatched, 317 of 600
 * stayed reachable at this concurrency; at 8 at once the leak hardly shows (22 against 19).
 */
const CONCURRENCY = 48;

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/**
 * How many objects the snapshot holds of each named class. A V8 heap snapshot holds only what is
 * still reachable: V8 collects everything else before taking it.
 */
function countObjects(snapshot: HeapSnapshot, classNames: readonly string[]): Record<string, number> {
  const fields = snapshot.snapshot.meta.node_fields;
  const stride = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const objectType = snapshot.snapshot.meta.node_types[0].indexOf("object");
  const counts = Object.fromEntries(classNames.map((name) => [name, 0]));
  for (let node = 0; node < snapshot.nodes.length; node += stride) {
    if (snapshot.nodes[node + typeAt] !== objectType) continue;
    const name = snapshot.strings[snapshot.nodes[node + nameAt]!]!;
    if (name in counts) counts[name]! += 1;
  }
  return counts;
}

/** Asks the server for a heap snapshot (it writes one on SIGUSR2) and reads it once it is whole. */
async function heapSnapshotOf(server: ServerProcess, directory: string): Promise<HeapSnapshot> {
  process.kill(server.pid, "SIGUSR2");
  return until(
    "the server wrote its heap snapshot",
    () => {
      const [file] = readdirSync(directory).filter((name) => name.endsWith(".heapsnapshot"));
      if (!file) return undefined;
      try {
        return JSON.parse(readFileSync(path.join(directory, file), "utf8")) as HeapSnapshot;
      } catch {
        return undefined; // still being written
      }
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

describe("requests a production server has finished", () => {
  let database: FaultDatabase | undefined;
  let server: ServerProcess | undefined;
  const snapshots = mkdtempSync(path.join(tmpdir(), "parley-heap-"));
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(snapshots, { recursive: true, force: true });
  });

  it("are not kept in memory once answered", async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "memory");
    server = await startServer({
      port: PORT,
      databaseUrl: database.url,
      authSecret: randomBytes(33).toString("base64"),
      env: { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}` },
    });
    const reader = new HttpClient(server.baseUrl);
    await reader.signIn("sam@parley.test", "sam-assignee-demo");

    let sent = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < REQUESTS) {
          sent += 1;
          statuses.push((await reader.request(sent % 2 === 0 ? "/inbox" : "/inbox?view=overdue")).status);
        }
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const live = countObjects(await heapSnapshotOf(server, snapshots), ["IncomingMessage", "ServerResponse"]);
    console.log(`memory: ${REQUESTS} pages over ${CONCURRENCY} connections; afterwards ${live.IncomingMessage} requests still reachable`);
    // Every page has been answered. What is left does not grow with the requests served (60–70 here,
    // after 600 pages as after 1,800): the last ones of the kept-alive connections and the like.
    expect(live.IncomingMessage, JSON.stringify(live)).toBeLessThanOrEqual(CONCURRENCY * 2);
    expect(live.ServerResponse, JSON.stringify(live)).toBeLessThanOrEqual(CONCURRENCY * 2);
  });
});
