/**
 * Benchmark 6 — the MCP server (`npm run bench -- mcp`), issue 16.
 *
 * A production build (`next start`) on PostgreSQL, driven by the official MCP client over
 * Streamable HTTP with an agent key, one call at a time (latency, not throughput):
 *
 * 1. `ask_person` latency: from the call to its result (`status: "open"`), the ask stored and its
 *    question put to the person;
 * 2. `await_answer` wake latency: an `await_answer` is held open, the person answers through the
 *    answer route with a personal token, and the time from that answer's 200 (committed) to the
 *    waiting call's result.
 *
 * Run: `npm run bench -- mcp`. Sizes, from the environment: BENCH_MCP_ASKS [200], BENCH_MCP_WAKES [100],
 * BENCH_MCP_SETTLE_MS (how long a wait is held before the answer) [150], BENCH_MCP_PORT [3146],
 * BENCH_MCP_BUILD_DIR [.next-http].
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { buildIfNeeded, startServer } from "./support/http-server";
import { recreateDatabase } from "./support/http-setup";
import { describeMachine } from "./support/machine";
import { benchCommand, setting, table, writeSection } from "./support/results";
import { figure, summarise, type Summary } from "./support/stats";

const NAME = "mcp";
const ASKS = setting("BENCH_MCP_ASKS", 200);
const WAKES = setting("BENCH_MCP_WAKES", 100);
const SETTLE_MS = setting("BENCH_MCP_SETTLE_MS", 150);
const PORT = setting("BENCH_MCP_PORT", 3146);
const BUILD_DIR = process.env.BENCH_MCP_BUILD_DIR?.trim() || ".next-http";

const serverUrl = process.env.BENCH_POSTGRES_URL;
if (!serverUrl) throw new Error(`BENCH_POSTGRES_URL is not set: run this through \`npm run bench -- ${NAME}\``);
const log = (line: string) => console.log(`[${NAME}] ${line}`);

log(`building into ${BUILD_DIR} if needed…`);
buildIfNeeded(BUILD_DIR);
const databaseUrl = await recreateDatabase(serverUrl, "parley_bench_mcp");
process.env.DATABASE_URL = databaseUrl;
const { getDatabase, closeDatabase } = await import("@/lib/database");
const { insertUsersIfAbsent } = await import("@/db/queries/users");
const { createApiKey } = await import("@/lib/api-keys");
const { db } = await getDatabase();
const [person, admin] = await insertUsersIfAbsent(db, [
  { email: "mcp-bench-person@parley.test", name: "MCP Bench Person", roles: ["assignee"] },
  { email: "mcp-bench-admin@parley.test", name: "MCP Bench Admin", roles: ["admin"] },
]);
const agentKey = await createApiKey(db, { kind: "agent", name: "MCP bench agent", by: admin!.id });
const token = await createApiKey(db, { kind: "personal", name: "MCP bench token", by: person!.id, userId: person!.id });

const server = await startServer({ buildDir: BUILD_DIR, port: PORT, databaseUrl, authSecret: randomBytes(33).toString("base64"), label: NAME, env: { PARLEY_API_RATE_LIMIT: "0" } });
const base = server.base.origin;
const client = new Client({ name: "parley-bench", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", base), { requestInit: { headers: { authorization: `Bearer ${agentKey.secret}` } } }));

async function ask(n: number): Promise<{ askId: string; questionId: string; ms: number }> {
  const started = performance.now();
  const result = await client.callTool({ name: "ask_person", arguments: { to: person!.email, question: `Bench question ${n}?` } });
  const ms = performance.now() - started;
  const { ask_id, status, url } = (result.structuredContent ?? {}) as { ask_id?: string; status?: string; url?: string };
  if (result.isError || status !== "open" || !ask_id || !url) throw new Error(`ask_person ${n}: ${JSON.stringify(result)}`);
  return { askId: ask_id, questionId: new URL(url).pathname.split("/").at(-1)!, ms };
}

try {
  log("warming up…");
  for (let n = 0; n < 10; n++) await ask(-n);
  const askMs: number[] = [];
  for (let n = 0; n < ASKS; n++) askMs.push((await ask(n)).ms);
  log(`${ASKS} asks`);

  const wakeMs: number[] = [];
  const sentToAwaitedMs: number[] = [];
  for (let n = 0; n < WAKES; n++) {
    const { askId, questionId } = await ask(ASKS + n);
    const waiting = client.callTool({ name: "await_answer", arguments: { ask_id: askId, wait_seconds: 30 } }).then((result) => ({ result, at: performance.now() }));
    await sleep(SETTLE_MS);
    const text = `Answer ${n}`;
    const sentAt = performance.now();
    const answered = await fetch(new URL(`/api/v1/questions/${questionId}/answer`, base), {
      method: "POST",
      headers: { authorization: `Bearer ${token.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ answers: { answer: text } }),
    });
    await answered.arrayBuffer();
    const committedAt = performance.now();
    if (answered.status !== 200) throw new Error(`answer ${n}: HTTP ${answered.status}`);
    const { result, at } = await waiting;
    const view = result.structuredContent as { status?: string; answer?: unknown };
    if (view.status !== "answered" || view.answer !== text) throw new Error(`await_answer ${n}: ${JSON.stringify(result)}`);
    wakeMs.push(at - committedAt);
    sentToAwaitedMs.push(at - sentAt);
  }
  log(`${WAKES} wakes`);

  const row = (label: string, summary: Summary) => [label, summary.count, `${figure(summary.median)} ms`, `${figure(summary.p95)} ms`, `${figure(summary.max)} ms`];
  writeSection(
    NAME,
    `## 6. The MCP server (issue 16)

The official MCP client over Streamable HTTP against \`next start\` on PostgreSQL, one call at a time.
\`ask_person\`: the call to its result (stored, question put, \`open\`). Wake: the person's answer
route returns 200 (committed) → the held \`await_answer\` returns the answer; negative when the wake
(LISTEN/NOTIFY at the commit) reaches the waiting call before the answer route's own reply reaches its
sender. Answer sent → awaited: from the answer request's start, an upper bound on the same.

${table(["measure", "n", "p50", "p95", "max"], [row("ask_person latency", summarise(askMs)), row("await_answer wake latency (answer 200 → result)", summarise(wakeMs)), row("answer sent → await_answer result", summarise(sentToAwaitedMs))])}

${await describeMachine(serverUrl)}

\`${benchCommand(NAME)}\``,
  );
} finally {
  await client.close().catch(() => {});
  await server.stop();
  await closeDatabase();
}
