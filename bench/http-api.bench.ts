/**
 * Benchmark 5 — the HTTP API (`npm run bench -- http-api`), issue 15.
 *
 * A production build (`next start`) on PostgreSQL, driven over kept-alive HTTP/1.1 from a lean load
 * generator in a child process (one fixed pool of connections per stretch), level by level at 16, 32
 * and 64 connections:
 *
 * 1. asks created per second through `POST /api/v1/asks` (an agent key, each with its own
 *    Idempotency-Key), then replays per second (the same key and body again → 200, the same ask);
 * 2. answers per second through `POST /api/v1/questions/{id}/answer` (each assignee's personal
 *    token, `{ answers: { answer } }`), then counted in the database: every question answered exactly
 *    once, by whom the 200 said, with that text; and races — several answers to one question at the
 *    same moment → exactly one 200, the rest 409. Skipped, saying so, while the route answers 404;
 * 3. long-poll wake latency: many `GET /api/v1/asks/{id}?wait=60` held at once, then their asks
 *    answered one after another — through the answer route (when there is one), and through a runtime
 *    in this process (another instance on the same PostgreSQL: the wake crosses processes through
 *    LISTEN/NOTIFY) — from the answer call's return to the waiting GET's reply.
 *
 * And the floors in the way, measured in the same run: each route refused at once (no key → 401,
 * before any work: the proxy, the route handler and the error reply); a raw INSERT+COMMIT at the
 * same concurrency; the CPU the server, PostgreSQL and the load generator take per request (these
 * 2-core machines are shared: the others' share is read from /proc/stat too).
 *
 * Run: `npm run bench -- http-api` (or `node bench/run.mjs api`), which starts the throwaway
 * PostgreSQL, builds into `.next-http` if the sources are newer, and writes section 5 of
 * bench/RESULTS.md (bench/results/http-api.md). Sizes, from the environment (defaults in brackets):
 *   BENCH_API_CONNECTIONS  the levels, connections in the pool          [16,32,64]
 *   BENCH_API_ASKS         asks created per level (timed)               [2000]
 *   BENCH_API_REPLAYS      replays per level                            [2000]
 *   BENCH_API_ANSWERS      answers per level, at most the asks          [= BENCH_API_ASKS]
 *   BENCH_API_WARMUP       of each, before the first level              [200]
 *   BENCH_API_PEOPLE       assignees, each with a personal token        [32]
 *   BENCH_API_RACES / BENCH_API_RACERS  questions raced, answers each  [100 / 4]
 *   BENCH_API_WAITS        long polls per answering road                [250]
 *   BENCH_API_WAIT_SETTLE_MS / BENCH_API_WAIT_GAP_MS                    [2000 / 0]
 *   BENCH_API_FLOOR_CALLS  refusals per level and route                 [2000]
 *   BENCH_API_COMMIT_CALLS raw INSERT+COMMITs per level                 [4000]
 *   BENCH_API_PORT, BENCH_API_BUILD_DIR, BENCH_API_SERVER_NODE_OPTIONS  [3144, .next-http, as npm start]
 *   BENCH_API_CPU_PROFILE  a folder: the server runs under --cpu-prof   [off]
 * A smoke run: BENCH_API_CONNECTIONS=16,32 BENCH_API_ASKS=150 BENCH_API_REPLAYS=150 BENCH_API_WARMUP=30
 * BENCH_API_RACES=10 BENCH_API_WAITS=40 BENCH_API_FLOOR_CALLS=200 BENCH_API_COMMIT_CALLS=300 npm run bench -- api
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { countApiAsks, countApiExactlyOnce, type TakenAnswer } from "./support/api-checks";
import { type ApiRequest, type ApiResult, clock, type LoadRun, startLoader } from "./support/api-loader";
import { type DatabaseActivity, openDatabaseStats } from "./support/http-database-stats";
import { buildIfNeeded, cpuMs, machineCpuMs, postgresCpuMs, postmasterPid, rssMiB, sampleRss, startServer, threadCpuMs } from "./support/http-server";
import { recreateDatabase } from "./support/http-setup";
import { describeMachine } from "./support/machine";
import { benchCommand, setting, table, writeSection } from "./support/results";
import { figure, summarise, type Summary } from "./support/stats";
import { serverNodeOptions } from "../scripts/build-if-needed.mjs";

const NAME = "http-api";

/** A list of whole numbers from the environment (`BENCH_API_CONNECTIONS=16,32,64`), or its default. */
function levels(name: string, fallback: number[]): number[] {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const values = raw.split(",").map((each) => Number(each.trim()));
  if (values.some((value) => !Number.isInteger(value) || value < 1)) throw new Error(`${name} must be whole numbers separated by commas, not ${raw}`);
  return values;
}

/** Connections of the load generator's pool, one level after another. */
const CONNECTIONS = levels("BENCH_API_CONNECTIONS", [16, 32, 64]);
/** Asks created at each level (timed); the answers at that level answer them. */
const ASKS = setting("BENCH_API_ASKS", 2_000);
/** Replays (the same Idempotency-Key and body again) at each level. */
const REPLAYS = setting("BENCH_API_REPLAYS", 2_000);
/** Answers at each level (at most ASKS). */
const ANSWERS = Math.min(setting("BENCH_API_ANSWERS", ASKS), ASKS);
/** Asks created, replayed and answered before the first level, not in the figures. */
const WARMUP = setting("BENCH_API_WARMUP", 200);
/** Assignees, each with a personal token; asks go to them round-robin. */
const PEOPLE = Math.max(2, setting("BENCH_API_PEOPLE", 32));
/** Questions raced for, and how many answers each gets at the same moment (its candidates', and the first one's twice). */
const RACES = setting("BENCH_API_RACES", 100);
const RACERS = Math.max(2, setting("BENCH_API_RACERS", 4));
/** Long polls per answering road (≥ 200 for the recorded run). */
const WAITS = setting("BENCH_API_WAITS", 250);
/** How long the held GETs are left to settle (each subscribed and re-read) before the first answer. */
const WAIT_SETTLE_MS = setting("BENCH_API_WAIT_SETTLE_MS", 2_000);
/** A pause between two answers of the long-poll stretch (0: one after another). */
const WAIT_GAP_MS = setting("BENCH_API_WAIT_GAP_MS", 0);
/** Requests refused at once (no key), per level and route: the floor. */
const FLOOR_CALLS = setting("BENCH_API_FLOOR_CALLS", 2_000);
/** Raw INSERT+COMMITs per level: what the database's commits allow at that concurrency. */
const COMMIT_CALLS = setting("BENCH_API_COMMIT_CALLS", 4_000);
const PORT = setting("BENCH_API_PORT", 3144);
/** The production build; shared with answers-over-http by default (built once if the sources are newer). */
const BUILD_DIR = process.env.BENCH_API_BUILD_DIR?.trim() || ".next-http";
/** A folder to write the server's CPU profile to (`node --cpu-prof`); off unless set. Each stretch's window is logged for bench/support/http-profile.ts. */
const CPU_PROFILE_DIR = process.env.BENCH_API_CPU_PROFILE?.trim() || undefined;
const SERVER_NODE_OPTIONS = process.env.BENCH_API_SERVER_NODE_OPTIONS?.trim() || serverNodeOptions({ ...process.env, NODE_OPTIONS: "" });
const TARGETS = { answersPerSecond: 400, rssMiB: 250, wakeP95Ms: 50 };

const serverUrl = process.env.BENCH_POSTGRES_URL;
if (!serverUrl) throw new Error(`BENCH_POSTGRES_URL is not set: run this through \`npm run bench -- ${NAME}\``);
const log = (line: string) => console.log(`[${NAME}] ${line}`);
const seconds = (ms: number) => `${figure(ms / 1000)} s`;
const ms = (value: number) => `${figure(value)} ms`;
const pass = (ok: boolean) => (ok ? "✅ yes" : "❌ no");
const maxConnections = Math.max(...CONNECTIONS);

// ── Set-up (not timed) ────────────────────────────────────────────────────────────────────────────
log(`building into ${BUILD_DIR} if needed…`);
buildIfNeeded(BUILD_DIR);

const DATABASE = "parley_bench_api";
const databaseUrl = await recreateDatabase(serverUrl, DATABASE);
process.env.DATABASE_URL = databaseUrl;
const { getDatabase, closeDatabase } = await import("@/lib/database");
const { insertUsersIfAbsent } = await import("@/db/queries/users");
const { createApiKey } = await import("@/lib/api-keys");
const database = await getDatabase();
const db = database.db;
const sqlClient = database.postgres!;

const people = (
  await insertUsersIfAbsent(
    db,
    Array.from({ length: PEOPLE }, (_, index) => ({ email: `api-bench-${String(index).padStart(3, "0")}@parley.test`, name: `API Bench Person ${index}`, roles: ["assignee" as const] })),
  )
).sort((a, b) => a.email.localeCompare(b.email));
const [admin] = await insertUsersIfAbsent(db, [{ email: "api-bench-admin@parley.test", name: "API Bench Admin", roles: ["admin" as const] }]);
const agentKey = await createApiKey(db, { kind: "agent", name: "Bench agent", by: admin!.id });
const tokens = await Promise.all(people.map((person) => createApiKey(db, { kind: "personal", name: `Bench token ${person.email}`, by: person.id, userId: person.id })));
log(`${PEOPLE} assignees with a personal token each, one agent key`);

// ── The server, the load generator ────────────────────────────────────────────────────────────────
if (CPU_PROFILE_DIR) mkdirSync(CPU_PROFILE_DIR, { recursive: true });
const serverStartedAt = Date.now();
const server = await startServer({
  buildDir: BUILD_DIR,
  port: PORT,
  databaseUrl,
  authSecret: randomBytes(33).toString("base64"),
  nodeOptions: SERVER_NODE_OPTIONS,
  ...(CPU_PROFILE_DIR ? { cpuProfileDir: CPU_PROFILE_DIR } : {}),
  label: NAME,
  // The per-key rate limit would refuse the load itself.
  env: { PARLEY_API_RATE_LIMIT: "0" },
});
const base = server.base.origin;
const rssAtStart = rssMiB(server.pid);
const loader = await startLoader();
const postmaster = postmasterPid(`${process.env.PARLEY_TEST_POSTGRES_DIR ?? ""}/data`);
const rss = sampleRss(server.pid);
log(`server ${server.pid} on ${base} (${figure(rssAtStart)} MiB), load generator ${loader.pid}`);

// ── Requests ──────────────────────────────────────────────────────────────────────────────────────
const RUN = randomBytes(4).toString("hex");
let asksMade = 0;
interface PlannedAsk {
  n: number;
  idempotencyKey: string;
  body: string;
  /** Who may answer (indexes into people). */
  to: number[];
}
interface MadeAsk extends PlannedAsk {
  id: string;
  questionId: string;
}
function planAsk(to: number[]): PlannedAsk {
  const n = asksMade++;
  const emails = to.map((index) => people[index]!.email);
  return {
    n,
    idempotencyKey: `bench-${RUN}-${n}`,
    to,
    body: JSON.stringify({
      to: emails.length === 1 ? emails[0] : emails,
      title: `Bench ask ${n}: may we book the Oslo workshop for the team?`,
      body: "A sentence is enough.",
      metadata: { bench: RUN, n },
    }),
  };
}
const agentHeaders = { authorization: `Bearer ${agentKey.secret}` };
const askRequest = (ask: PlannedAsk): ApiRequest => ({ method: "POST", path: "/api/v1/asks", headers: { ...agentHeaders, "idempotency-key": ask.idempotencyKey }, body: ask.body });
const answerText = (ask: MadeAsk, person: number, racer = 0) => `Yes, book it: ask ${ask.n}, person ${person}, racer ${racer}.`;
const answerRequest = (questionId: string, person: number, text: string): ApiRequest => ({
  method: "POST",
  path: `/api/v1/questions/${questionId}/answer`,
  headers: { authorization: `Bearer ${tokens[person]!.secret}` },
  body: JSON.stringify({ answers: { answer: text } }),
});
/** Refused at once: no Authorization, so nothing is looked up or read. */
const refusedAnswer = (): ApiRequest => ({ method: "POST", path: `/api/v1/questions/${randomUUID()}/answer`, headers: {}, body: '{"answers":{"answer":"no key"}}' });
const refusedAsk = (): ApiRequest => ({ method: "POST", path: "/api/v1/asks", headers: {}, body: '{"to":"nobody@parley.test","title":"no key"}' });

const parse = (result: ApiResult): Record<string, unknown> => {
  try {
    return JSON.parse(result.body) as Record<string, unknown>;
  } catch {
    return {};
  }
};
const errorCode = (result: ApiResult) => ((parse(result).error as { code?: string } | undefined)?.code ?? "");
const describeReply = (result: ApiResult) => `HTTP ${result.status} ${result.body.slice(0, 160)}`;

/** Creates asks (untimed unless measured by the caller); every one must be 201 and open. */
async function makeAsks(planned: PlannedAsk[], connections: number): Promise<{ made: MadeAsk[]; run: LoadRun }> {
  const run = await loader.run(base, planned.map((ask) => [askRequest(ask)]), { connections, keepBodies: true });
  const made = run.results
    .sort((a, b) => a.item - b.item)
    .map((result) => {
      const body = parse(result);
      if (result.status !== 201 || body.status !== "open") throw new Error(`an ask was not created open: ${describeReply(result)}`);
      const questionId = /\/questions\/([0-9a-f-]{36})$/.exec(String(body.url))?.[1];
      if (!questionId) throw new Error(`an ask's url names no question: ${String(body.url)}`);
      return { ...planned[result.item]!, id: String(body.id), questionId };
    });
  return { made, run };
}

/** Jobs queued or running; one count per status, so that each reads its partial index. */
async function jobsPending(): Promise<number> {
  const [row] = await sqlClient<{ count: number }[]>`
    select (select count(*) from jobs where status = 'queued') + (select count(*) from jobs where status = 'running') as count`;
  return Number(row?.count ?? 0);
}
/** Waits until the server's worker has run every queued job; how long that took. */
async function drain(): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + 10 * 60_000;
  while ((await jobsPending()) > 0) {
    if (Date.now() > deadline) throw new Error("the runs did not drain within 10 minutes");
    await sleep(50);
  }
  return performance.now() - started;
}

// ── Measuring a stretch ───────────────────────────────────────────────────────────────────────────
/** What one measured stretch took: wall time, every process's CPU, the machine's, the server's RSS, the database's work. */
interface Stretch {
  run: LoadRun;
  wallMs: number;
  requests: number;
  ok: number;
  latency: Summary;
  serverCpuMs: number;
  /** …of which its main thread's (where JavaScript runs: one core at most). */
  serverMainCpuMs: number;
  postgresCpuMs: number;
  loaderCpuMs: number;
  benchCpuMs: number;
  machineBusyMs: number;
  machineTotalMs: number;
  rssPeakMiB: number;
  database?: DatabaseActivity;
}

async function measure(label: string, items: ApiRequest[][], options: { connections: number; workers?: number; keepBodies?: boolean; ok: (result: ApiResult) => boolean; database?: boolean }): Promise<Stretch> {
  const stats = options.database ? await openDatabaseStats(serverUrl!, DATABASE) : undefined;
  await stats?.reset();
  const before = { server: cpuMs(server.pid), main: threadCpuMs(server.pid), postgres: postmaster ? postgresCpuMs(postmaster) : Number.NaN, bench: process.cpuUsage(), machine: machineCpuMs() };
  const run = await loader.run(base, items, { connections: options.connections, ...(options.workers ? { workers: options.workers } : {}), keepBodies: options.keepBodies ?? false });
  const after = { server: cpuMs(server.pid), main: threadCpuMs(server.pid), postgres: postmaster ? postgresCpuMs(postmaster) : Number.NaN, bench: process.cpuUsage(before.bench), machine: machineCpuMs() };
  const database = await stats?.read();
  await stats?.close();
  const startEpoch = run.startedAt;
  const endEpoch = run.endedAt;
  if (CPU_PROFILE_DIR) log(`${label}: --window=${figure((startEpoch - serverStartedAt) / 1000, 5)},${figure((endEpoch - serverStartedAt) / 1000, 5)}`);
  return {
    run,
    wallMs: run.endedAt - run.startedAt,
    requests: run.results.length,
    ok: run.results.filter(options.ok).length,
    latency: summarise(run.results.map((result) => result.end - result.start)),
    serverCpuMs: after.server - before.server,
    serverMainCpuMs: after.main - before.main,
    postgresCpuMs: after.postgres - before.postgres,
    loaderCpuMs: run.cpuMs,
    benchCpuMs: (after.bench.user + after.bench.system) / 1000,
    machineBusyMs: after.machine.busy - before.machine.busy,
    machineTotalMs: after.machine.total - before.machine.total,
    rssPeakMiB: peakRss(startEpoch, endEpoch),
    ...(database ? { database } : {}),
  };
}

/** The server's peak RSS between two moments (epoch ms), from the running sampler. */
function peakRss(from: number, to: number): number {
  const inside = rss.peek().filter(([at]) => at >= from - 100 && at <= to + 100).map(([, mib]) => mib);
  return inside.length > 0 ? Math.max(...inside) : Number.NaN;
}

const perSecond = (stretch: Stretch) => stretch.ok / (stretch.wallMs / 1000);
const per = (value: number, stretch: Stretch) => value / Math.max(1, stretch.ok);
/** Share of the machine's CPU (all cores) over the stretch. */
const share = (value: number, stretch: Stretch) => `${figure((100 * value) / stretch.machineTotalMs, 2)}%`;
function failures(stretch: Stretch, ok: (result: ApiResult) => boolean): string {
  const bad = stretch.run.results.filter((result) => !ok(result));
  return bad.length === 0 ? "" : ` — ${bad.length} not as expected (first: ${describeReply(bad[0]!)})`;
}

// ── Warm-up ───────────────────────────────────────────────────────────────────────────────────────
// Does the answer route exist on this build? Refused for want of a key (401) if it does; 404 if not.
const probe = await loader.run(base, [[refusedAnswer()]], { connections: 1 });
const answerRoute = probe.results[0]!.status === 401;
if (!answerRoute && probe.results[0]!.status !== 404) throw new Error(`the answer route's probe: ${describeReply(probe.results[0]!)}`);
const SKIPPED_ANSWERS =
  "skipped: `POST /api/v1/questions/{id}/answer` answered 404 on this build — the answer route is not on this branch yet (merge it and run again)";
if (!answerRoute) log(`answers over the API ${SKIPPED_ANSWERS}`);

let person = 0;
const nextPerson = () => person++ % PEOPLE;
const allAnswered: string[] = [];
const taken: TakenAnswer[] = [];
/** Records the 200s of an answer run as taken answers. */
function recordAnswers(run: LoadRun, sent: { ask: MadeAsk; person: number; text: string }[][]) {
  for (const result of run.results) {
    if (result.status === 200 && parse(result).status === "answered") {
      const each = sent[result.item]![result.part]!;
      taken.push({ questionId: each.ask.questionId, userId: people[each.person]!.id, text: each.text });
    }
  }
}
function answerPlan(made: MadeAsk[]) {
  return made.map((ask) => {
    const who = ask.to[0]!;
    return [{ ask, person: who, text: answerText(ask, who) }];
  });
}

log(`warm-up: ${WARMUP} asks, replays${answerRoute ? ", answers" : ""} and refusals at ${maxConnections} connections…`);
{
  const { made } = await makeAsks(Array.from({ length: WARMUP }, () => planAsk([nextPerson()])), maxConnections);
  await loader.run(base, made.map((ask) => [askRequest(ask)]), { connections: maxConnections });
  await loader.run(base, Array.from({ length: WARMUP }, () => [refusedAsk()]), { connections: maxConnections });
  if (answerRoute) {
    const plan = answerPlan(made);
    const run = await loader.run(base, plan.map((parts) => parts.map((each) => answerRequest(each.ask.questionId, each.person, each.text))), { connections: maxConnections, keepBodies: true });
    recordAnswers(run, plan);
    allAnswered.push(...made.map((ask) => ask.questionId));
    await loader.run(base, Array.from({ length: WARMUP }, () => [refusedAnswer()]), { connections: maxConnections });
  }
  await drain();
}
const rssAfterWarmup = rssMiB(server.pid);

// ── Levels: asks, replays, answers, and their floors ──────────────────────────────────────────────
interface Level {
  connections: number;
  asks: Stretch;
  replays: Stretch;
  askFloor: Stretch;
  answers?: Stretch;
  answersDrainMs?: number;
  answerFloor?: Stretch;
  commits: { perSecond: number; latency: Summary; benchCpuMs: number };
  notes: string[];
}
const results: Level[] = [];
const allMade: MadeAsk[] = [];
const isAsk = (result: ApiResult) => result.status === 201 && parse(result).status === "open";
const isUnauthorized = (result: ApiResult) => result.status === 401 && errorCode(result) === "unauthorized";
const isAnswered = (result: ApiResult) => result.status === 200 && parse(result).status === "answered";

/** A raw single-row INSERT (autocommit: INSERT+COMMIT) from `connections` at once: what commits cost on this database now. */
async function rawCommits(connections: number, count: number): Promise<Level["commits"]> {
  const client = postgres(databaseUrl, { max: connections, onnotice: () => {} });
  await client`create table if not exists bench_api_commits (id bigserial primary key, at timestamptz not null default now(), note text)`;
  await Promise.all(Array.from({ length: connections }, () => client`select 1`));
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next++ < count) {
        const at = performance.now();
        await client`insert into bench_api_commits (note) values ('bench')`;
        latencies.push(performance.now() - at);
      }
    }),
  );
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await client.end({ timeout: 5 });
  return { perSecond: count / (wall / 1000), latency: summarise(latencies), benchCpuMs: (used.user + used.system) / 1000 };
}

for (const connections of CONNECTIONS) {
  const notes: string[] = [];
  log(`${connections} connections: ${ASKS} asks…`);
  const planned = Array.from({ length: ASKS }, () => planAsk([nextPerson()]));
  const asks = await measure(`asks at ${connections}`, planned.map((ask) => [askRequest(ask)]), { connections, keepBodies: true, ok: isAsk, database: true });
  const made = asks.run.results
    .filter(isAsk)
    .sort((a, b) => a.item - b.item)
    .map((result): MadeAsk => {
      const body = parse(result);
      return { ...planned[result.item]!, id: String(body.id), questionId: /\/questions\/([0-9a-f-]{36})$/.exec(String(body.url))![1]! };
    });
  if (asks.ok !== ASKS) notes.push(`asks${failures(asks, isAsk)}`);
  allMade.push(...made);
  await drain();

  log(`${connections} connections: ${REPLAYS} replays…`);
  const replayOf = (index: number) => made[index % made.length]!;
  const replays = await measure(
    `replays at ${connections}`,
    Array.from({ length: REPLAYS }, (_, index) => [askRequest(replayOf(index))]),
    { connections, keepBodies: true, ok: (result) => result.status === 200 && parse(result).id === replayOf(result.item).id },
  );
  if (replays.ok !== REPLAYS) notes.push(`replays${failures(replays, (result) => result.status === 200 && parse(result).id === replayOf(result.item).id)}`);

  log(`${connections} connections: ${FLOOR_CALLS} asks refused at once…`);
  const askFloor = await measure(`asks refused at ${connections}`, Array.from({ length: FLOOR_CALLS }, () => [refusedAsk()]), { connections, keepBodies: true, ok: isUnauthorized });

  let answers: Stretch | undefined;
  let answersDrainMs: number | undefined;
  let answerFloor: Stretch | undefined;
  if (answerRoute) {
    log(`${connections} connections: ${ANSWERS} answers…`);
    const plan = answerPlan(made.slice(0, ANSWERS));
    answers = await measure(
      `answers at ${connections}`,
      plan.map((parts) => parts.map((each) => answerRequest(each.ask.questionId, each.person, each.text))),
      { connections, keepBodies: true, ok: isAnswered, database: true },
    );
    recordAnswers(answers.run, plan);
    allAnswered.push(...plan.map((parts) => parts[0]!.ask.questionId));
    if (answers.ok !== plan.length) notes.push(`answers${failures(answers, isAnswered)}`);
    answersDrainMs = await drain();
    log(`${connections} connections: ${FLOOR_CALLS} answers refused at once…`);
    answerFloor = await measure(`answers refused at ${connections}`, Array.from({ length: FLOOR_CALLS }, () => [refusedAnswer()]), { connections, keepBodies: true, ok: isUnauthorized });
  }

  log(`${connections} connections: ${COMMIT_CALLS} raw INSERT+COMMITs…`);
  const commits = await rawCommits(connections, COMMIT_CALLS);
  results.push({ connections, asks, replays, askFloor, ...(answers ? { answers, answersDrainMs: answersDrainMs!, answerFloor: answerFloor! } : {}), commits, notes });
  log(
    `${connections} connections: ${figure(perSecond(asks))} asks/s, ${figure(perSecond(replays))} replays/s, refused ${figure(perSecond(askFloor))}/s` +
      (answers ? `; ${figure(perSecond(answers))} answers/s, refused ${figure(perSecond(answerFloor!))}/s` : "") +
      `; raw commits ${figure(commits.perSecond)}/s${notes.length ? ` — ${notes.join("; ")}` : ""}`,
  );
}

// ── Races ─────────────────────────────────────────────────────────────────────────────────────────
interface RaceOutcome {
  races: number;
  exactlyOneWinner: number;
  restConflict: number;
  replies: Map<string, number>;
}
let raceOutcome: RaceOutcome | undefined;
let raceStretch: Stretch | undefined;
if (answerRoute && RACES > 0) {
  const candidates = Math.min(RACERS - 1, PEOPLE);
  log(`races: ${RACES} asks to ${candidates} candidate${candidates === 1 ? "" : "s"} each, ${RACERS} answers at once for each…`);
  const { made } = await makeAsks(
    Array.from({ length: RACES }, () => {
      const first = nextPerson();
      return planAsk(Array.from({ length: candidates }, (_, index) => (first + index) % PEOPLE));
    }),
    maxConnections,
  );
  // Each candidate once, then the first ones again (one person's double submit).
  const plan = made.map((ask) => Array.from({ length: RACERS }, (_, racer) => ({ ask, person: ask.to[racer % ask.to.length]!, text: answerText(ask, ask.to[racer % ask.to.length]!, racer) })));
  raceStretch = await measure(
    "races",
    plan.map((parts) => parts.map((each) => answerRequest(each.ask.questionId, each.person, each.text))),
    { connections: maxConnections, workers: Math.max(1, Math.floor(maxConnections / RACERS)), keepBodies: true, ok: isAnswered },
  );
  recordAnswers(raceStretch.run, plan);
  allAnswered.push(...made.map((ask) => ask.questionId));
  const byRace = new Map<number, ApiResult[]>();
  for (const result of raceStretch.run.results) byRace.set(result.item, [...(byRace.get(result.item) ?? []), result]);
  const replies = new Map<string, number>();
  for (const result of raceStretch.run.results) {
    const key = `${result.status} ${isAnswered(result) ? "answered" : errorCode(result) || result.body.slice(0, 60)}`;
    replies.set(key, (replies.get(key) ?? 0) + 1);
  }
  raceOutcome = {
    races: byRace.size,
    exactlyOneWinner: [...byRace.values()].filter((parts) => parts.filter(isAnswered).length === 1).length,
    restConflict: [...byRace.values()].filter((parts) => parts.filter((result) => !isAnswered(result)).every((result) => result.status === 409)).length,
    replies,
  };
  await drain();
  log(`races: ${raceOutcome.exactlyOneWinner} of ${raceOutcome.races} with exactly one winner; replies ${[...replies].map(([reply, count]) => `${count} × ${reply}`).join(", ")}`);
}

// ── Long polls ────────────────────────────────────────────────────────────────────────────────────
interface Wakes {
  road: string;
  polls: number;
  latency: Summary;
  /** Polls that replied before their answer's call had returned (the wake beat the answer's own reply). */
  early: number;
  /** Polls that did not reply 200 `answered` with the answer sent. */
  wrong: number;
  firstWrong?: string;
  answerLatency: Summary;
  clockUncertaintyMs: number;
  rssPeakMiB: number;
}

/** Holds a GET …?wait=60 on each of `count` new asks, then answers them one by one with `answer`; per ask, answer's return → GET's reply. */
/** An answer of the long-poll stretch: when its call began and returned (on the load generator's clock), whether it was taken. */
interface TimedAnswer {
  start: number;
  end: number;
  ok: boolean;
  reply: string;
}

async function longPolls(
  road: string,
  answerAll: (answers: { ask: MadeAsk; text: string }[]) => Promise<TimedAnswer[]>,
  clockUncertaintyMs: number,
): Promise<Wakes> {
  const { made } = await makeAsks(Array.from({ length: WAITS }, () => planAsk([nextPerson()])), maxConnections);
  await drain();
  const from = clock();
  const polls = loader.open(base, made.map((ask) => ({ method: "GET", path: `/api/v1/asks/${ask.id}?wait=60`, headers: agentHeaders })));
  await polls.opened;
  await sleep(WAIT_SETTLE_MS);
  // …and until the server has stopped working on them (each subscribes and reads its ask again).
  for (let quiet = 0, tries = 0; quiet < 2 && tries < 40; tries++) {
    const before = cpuMs(server.pid);
    await sleep(250);
    quiet = cpuMs(server.pid) - before <= 25 ? quiet + 1 : 0;
  }
  log(`${road}: ${WAITS} GETs held; answering them one by one…`);
  const toSend = made.map((ask) => ({ ask, text: answerText(ask, ask.to[0]!) }));
  const timed = await answerAll(toSend);
  allAnswered.push(...made.map((ask) => ask.questionId));
  const refused = timed.find((each) => !each.ok);
  if (refused) throw new Error(`${road}: an answer was not taken: ${refused.reply}`);
  const answered = timed.map((each, index) => ({ ...each, text: toSend[index]!.text }));
  const { results } = await polls.polled;
  const latencies: number[] = [];
  let early = 0;
  let wrong = 0;
  let firstWrong: string | undefined;
  for (const result of results) {
    const body = parse(result);
    const sent = answered[result.item]!;
    if (result.status !== 200 || body.status !== "answered" || body.answer !== sent.text) {
      wrong += 1;
      firstWrong ??= describeReply(result);
      continue;
    }
    const latency = result.end - sent.end;
    if (latency < 0) early += 1;
    latencies.push(latency);
  }
  await drain();
  return {
    road,
    polls: results.length,
    latency: summarise(latencies),
    early,
    wrong,
    ...(firstWrong ? { firstWrong } : {}),
    answerLatency: summarise(answered.map((each) => each.end - each.start)),
    clockUncertaintyMs,
    rssPeakMiB: peakRss(from, clock()),
  };
}

const wakes: Wakes[] = [];
if (WAITS > 0) {
  if (answerRoute) {
    // Answered through the route by the load generator, whose clock the polls' replies are on too.
    wakes.push(
      await longPolls(
        "answer route",
        async (answers) => {
          // One after another on one kept-alive connection.
          const run = await loader.run(base, answers.map(({ ask, text }) => [answerRequest(ask.questionId, ask.to[0]!, text)]), { connections: 1, keepBodies: true, gapMs: WAIT_GAP_MS });
          const results = run.results.sort((a, b) => a.item - b.item);
          recordAnswers(run, answers.map(({ ask, text }) => [{ ask, person: ask.to[0]!, text }]));
          return results.map((result) => ({ start: result.start, end: result.end, ok: isAnswered(result), reply: describeReply(result) }));
        },
        0,
      ),
    );
  }
  // Answered by a runtime in this process: another instance on the same PostgreSQL. Its worker and
  // outbox drainer are stopped at once; the server's worker runs the resumed runs.
  const { getAppRuntime } = await import("@/lib/app-runtime");
  const app = await getAppRuntime();
  await app.stop();
  const { offset, uncertainty } = await loader.clockOffset();
  wakes.push(
    await longPolls(
      "runtime in another process",
      async (answers) => {
        const timed: TimedAnswer[] = [];
        for (const { ask, text } of answers) {
          const by = people[ask.to[0]!]!.id;
          // On the load generator's clock, where the polls' replies are timed.
          const start = clock() + offset;
          const result = await app.runtime.submitAnswer({ questionId: ask.questionId, by, answer: { text: { answer: text } } });
          const end = clock() + offset;
          if (result.status === "answered") taken.push({ questionId: ask.questionId, userId: by, text });
          timed.push({ start, end, ok: result.status === "answered", reply: JSON.stringify(result).slice(0, 200) });
          if (WAIT_GAP_MS > 0) await sleep(WAIT_GAP_MS);
        }
        return timed;
      },
      uncertainty,
    ),
  );
  for (const each of wakes) log(`long polls, ${each.road}: p50 ${ms(each.latency.median)}, p95 ${ms(each.latency.p95)}, max ${ms(each.latency.max)} over ${each.latency.count}; ${each.wrong} wrong`);
}

// ── Afterwards: count in the database ─────────────────────────────────────────────────────────────
await drain();
// The load average as the benchmark began (read when machine.ts was imported) and now, at its end.
const machine = await describeMachine(serverUrl);
const exactly = await countApiExactlyOnce(db, { questionIds: allAnswered, taken });
const askCounts = await countApiAsks(db, agentKey.key.id);
const rssAll = rss.stop();
const rssPeak = Math.max(...rssAll.map(([, mib]) => mib));
const serverErrorLines = server.errors().split("\n").filter((line) => line.trim() !== "");
if (serverErrorLines.length > 0) log(`the server's stderr:\n${serverErrorLines.slice(0, 40).join("\n")}`);
loader.stop();
await server.stop();
await closeDatabase();
if (CPU_PROFILE_DIR) log(`CPU profile: ${readdirSync(CPU_PROFILE_DIR).filter((file) => file.endsWith(".cpuprofile")).map((file) => path.join(CPU_PROFILE_DIR, file)).join(", ")} (tsx bench/support/http-profile.ts <file> --window=… as logged above)`);

// ── The section ───────────────────────────────────────────────────────────────────────────────────
const answerLevels = results.filter((level) => level.answers);
const peakDuringLoads = Math.max(...results.flatMap((level) => [level.asks, level.replays, level.askFloor, ...(level.answers ? [level.answers, level.answerFloor!] : [])].map((stretch) => stretch.rssPeakMiB)));
const exactlyOnceOk =
  exactly.takenTwice === 0 &&
  exactly.takenNever === 0 &&
  exactly.lost === 0 &&
  exactly.answeredWithoutReply === 0 &&
  exactly.doubled === 0 &&
  exactly.jobsLeft === 0 &&
  exactly.oneAnsweredEvent === exactly.questions &&
  exactly.oneEventJob === exactly.questions &&
  exactly.runsAnswered === exactly.questions &&
  (!raceOutcome || (raceOutcome.exactlyOneWinner === raceOutcome.races && raceOutcome.restConflict === raceOutcome.races));
const levelNotes = results.flatMap((level) => level.notes.map((note) => `${level.connections} connections: ${note}`));
const asksOk = askCounts.asks === askCounts.distinctKeys && askCounts.asks === asksMade && askCounts.withQuestion === asksMade;

/** One row of the throughput table. */
function row(road: string, level: Level, stretch: Stretch): (string | number)[] {
  const perRequest = (value: number) => figure(per(value, stretch));
  const others = stretch.machineBusyMs - stretch.serverCpuMs - stretch.postgresCpuMs - stretch.loaderCpuMs - stretch.benchCpuMs;
  return [
    road,
    level.connections,
    `${stretch.ok} / ${stretch.requests}`,
    `**${figure(perSecond(stretch))}**`,
    figure(stretch.latency.median),
    figure(stretch.latency.p95),
    figure(stretch.latency.max),
    `${perRequest(stretch.serverCpuMs)} (${perRequest(stretch.serverMainCpuMs)})`,
    perRequest(stretch.postgresCpuMs),
    perRequest(stretch.loaderCpuMs),
    `${share(stretch.serverCpuMs, stretch)} / ${share(stretch.postgresCpuMs, stretch)} / ${share(stretch.loaderCpuMs, stretch)} / ${share(Math.max(0, others), stretch)}`,
    stretch.database ? `${perRequest(stretch.database.statements ?? Number.NaN)} / ${perRequest(stretch.database.commits)} / ${perRequest(stretch.database.writeTransactions)} / ${perRequest(stretch.database.walSyncs)}` : "—",
    figure(stretch.rssPeakMiB),
  ];
}
const throughputRows = results.flatMap((level) => [
  ...(level.answers ? [row("answer (`POST /api/v1/questions/{id}/answer`)", level, level.answers)] : []),
  ...(level.answerFloor ? [row("answer refused at once (no key → 401)", level, level.answerFloor)] : []),
  row("ask (`POST /api/v1/asks`, new Idempotency-Key)", level, level.asks),
  row("replay (same Idempotency-Key and body → 200)", level, level.replays),
  row("ask refused at once (no key → 401)", level, level.askFloor),
]);

/** The floors for one level's answers: what stands in the way of the target, each measured. */
function floorRow(level: Level): (string | number)[] {
  const answers = level.answers!;
  const floor = level.answerFloor!;
  const mainPer = per(answers.serverMainCpuMs, answers);
  const floorMainPer = per(floor.serverMainCpuMs, floor);
  const allPer = per(answers.serverCpuMs + answers.postgresCpuMs + answers.loaderCpuMs, answers);
  const commitsPer = answers.database ? per(answers.database.writeTransactions, answers) : Number.NaN;
  const busy = (stretch: Stretch) => `${figure((100 * stretch.serverMainCpuMs) / stretch.wallMs, 2)}%`;
  const others = answers.machineBusyMs - answers.serverCpuMs - answers.postgresCpuMs - answers.loaderCpuMs - answers.benchCpuMs;
  return [
    level.connections,
    `**${figure(perSecond(answers))}**`,
    `${figure(perSecond(floor))}`,
    `${figure(perSecond(answers) / perSecond(floor), 2)}×`,
    `${figure(mainPer)} ms, ${busy(answers)} busy → ${figure(1000 / mainPer)}/s`,
    `${figure(floorMainPer)} ms, ${busy(floor)} busy → ${figure(1000 / floorMainPer)}/s`,
    `${figure(allPer)} ms → ${figure((2 * 1000) / allPer)}/s`,
    `${figure(level.commits.perSecond)}/s (${ms(level.commits.latency.median)} median); ${figure(commitsPer)} per answer → ${figure(level.commits.perSecond / commitsPer)}/s`,
    `${figure((100 * answers.machineBusyMs) / answers.machineTotalMs, 2)}% (${share(Math.max(0, others), answers)})`,
  ];
}

const wakeRows = wakes.map((each) => [
  each.road,
  `${each.latency.count} of ${each.polls}`,
  `**${figure(each.latency.median)}**`,
  `**${figure(each.latency.p95)}**`,
  figure(each.latency.max),
  figure(each.latency.min),
  each.early,
  each.wrong,
  figure(each.answerLatency.median),
  each.clockUncertaintyMs > 0 ? `± ${figure(each.clockUncertaintyMs)}` : "one clock",
]);

const targetRows: (string | number)[][] = [
  ...(answerRoute
    ? answerLevels.map((level) => [`Answers per second through the answer route, ${level.connections} connections`, figure(perSecond(level.answers!)), `≥ ${TARGETS.answersPerSecond}`, pass(perSecond(level.answers!) >= TARGETS.answersPerSecond)])
    : [["Answers per second through the answer route", SKIPPED_ANSWERS, `≥ ${TARGETS.answersPerSecond}`, "—"]]),
  ["Answered exactly once (none lost, none twice, every 200 recorded, races one winner each)", exactlyOnceOk ? "yes" : "**no**", "yes", answerRoute || wakes.length > 0 ? pass(exactlyOnceOk) : "—"],
  ["Server RSS, peak under the levels' load", `${figure(peakDuringLoads)} MiB`, `≤ ${TARGETS.rssMiB} MiB`, pass(peakDuringLoads <= TARGETS.rssMiB)],
  ["Server RSS, peak over the whole run (long polls included)", `${figure(rssPeak)} MiB`, `≤ ${TARGETS.rssMiB} MiB`, pass(rssPeak <= TARGETS.rssMiB)],
  ...wakes.map((each) => [`Long-poll wake, p95 (${each.road})`, ms(each.latency.p95), `≤ ${TARGETS.wakeP95Ms} ms`, pass(each.latency.p95 <= TARGETS.wakeP95Ms && each.wrong === 0)]),
  ["Asks: one per Idempotency-Key, replays the same ask", asksOk && levelNotes.length === 0 ? "yes" : "**no**", "yes", pass(asksOk && levelNotes.length === 0)],
];

const maxLevel = results.at(-1)!;
const statementRows = (maxLevel.answers?.database ?? maxLevel.asks.database)?.byQuery.slice(0, 10).map((each) => {
  const stretch = maxLevel.answers ?? maxLevel.asks;
  return [`\`${each.query.replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 110)}\``, figure(each.calls / stretch.ok), figure(each.totalMs / each.calls), figure(each.totalMs / stretch.ok)];
});

const markdown = `
## 5. The HTTP API: asks, answers, long polls

${machine}
- Command: \`${benchCommand(NAME)}\`
- Server: \`next start\` (production build in \`${BUILD_DIR}\`) on PostgreSQL, one Node process (its worker loop runs the resumed runs)${CPU_PROFILE_DIR ? " under `node --cpu-prof`" : ""}, \`PARLEY_API_RATE_LIMIT=0\`, NODE_OPTIONS=\`${SERVER_NODE_OPTIONS}\`; VmRSS sampled every 100 ms: ${figure(rssAtStart)} MiB once ready, ${figure(rssAfterWarmup)} MiB after the warm-up.
- Load: one load-generator process (node:http, one kept-alive Agent per stretch whose pool is the level's connections; each connection sends its next request when its reply is read); at most ${Math.max(...results.flatMap((level) => [level.asks, level.replays, level.askFloor, ...(level.answers ? [level.answers] : [])].map((stretch) => stretch.run.connectionsOpened)))} connections opened in a stretch.
- Data: ${PEOPLE} assignees, each with a personal token; one agent key asks them round-robin (free-text asks, so the answer's field path is \`answer\`). Per level: ${ASKS} asks, each with its own Idempotency-Key; ${REPLAYS} replays of them; ${answerRoute ? `${ANSWERS} of those asks answered, each by its assignee's token` : "no answers (the route is not there)"}; ${FLOOR_CALLS} requests to each route without a key; ${COMMIT_CALLS} raw INSERT+COMMITs. ${WARMUP} of each before the first level, not in the figures.
- Races: ${answerRoute && RACES > 0 ? `${RACES} asks to ${Math.min(RACERS - 1, PEOPLE)} candidates each; ${RACERS} answers sent at the same moment to each (every candidate's token, and the first one's again)` : "not run (no answer route)"}.
- Long polls: ${WAITS} asks per road, each with a \`GET /api/v1/asks/{id}?wait=60\` held (all at once, a connection each, left ${seconds(WAIT_SETTLE_MS)} and until the server was idle), then the asks answered one after another${WAIT_GAP_MS ? `, ${WAIT_GAP_MS} ms apart` : ""}; the latency is from the answer call's return to the waiting GET's reply.${answerRoute ? "" : " Only the runtime road: the answer route is not there."}

${table(["target", "measured", "wanted", "met?"], targetRows)}

${answerRoute ? "" : `**Answers over the API ${SKIPPED_ANSWERS}.**\n`}
Throughput by road and connections (wall time from the first request to the last reply; latency per request, ms; CPU per successful request, ms; the machine's CPU over the stretch, all cores, split into the server / PostgreSQL / the load generator / everything else on this shared machine; the database per request: statements / commits / write transactions / WAL flushes):

${table(
  ["road", "connections", "ok / sent", "per second", "median", "p95", "max", "server CPU (its main thread)", "PostgreSQL CPU", "load generator CPU", "machine CPU: server / PG / load / others", "statements / commits / writes / flushes", "peak RSS MiB"],
  throughputRows,
)}

${
  answerLevels.length > 0
    ? `What stands in the way of ${TARGETS.answersPerSecond} answers a second, measured at each level. A ceiling is how many a second that alone would allow: the server's JavaScript runs on its main thread, one core at most, so 1000 ms ÷ its CPU per request bounds one process (its other threads — GC, libuv — are in the server CPU above); all three processes' CPU ÷ 2 cores bounds the machine, were nothing else running on it; the raw commit rate ÷ write transactions per answer bounds the database's commits.

${table(
  [
    "connections",
    "answers/s",
    "same route refused at once (no key), req/s",
    "answers ÷ refused",
    "server's main thread per answer, busy, → its ceiling",
    "…per refusal, busy, → its ceiling",
    "server + PostgreSQL + load CPU per answer → 2 cores' ceiling",
    "raw INSERT+COMMIT at that concurrency; write transactions per answer → commits' ceiling",
    "machine busy (others' share)",
  ],
  answerLevels.map(floorRow),
)}

- Resumed runs (each answer's \`Answered\` event job, run by the server's worker) drained ${answerLevels.map((level) => `${ms(level.answersDrainMs!)} after the last reply at ${level.connections} connections`).join(", ")}.
`
    : ""
}
Long-poll wakes (ms; a negative latency is a GET that replied before its answer's own call returned):

${table(["answered through", "polls timed", "p50", "p95", "max", "min", "replied first", "not answered/wrong", "answer call, median", "clocks"], wakeRows)}
${wakes.some((each) => each.firstWrong) ? `\nFirst wrong poll: ${wakes.find((each) => each.firstWrong)!.firstWrong}\n` : ""}
Counted in the database afterwards (every question answers were sent to: warm-up, levels, races, long polls):

${table(
  ["", "count", "expected"],
  [
    ["questions answers were sent to", exactly.questions, "—"],
    ["200 `answered` replies", exactly.taken, exactly.questions],
    ["questions with two or more 200s", exactly.takenTwice, 0],
    ["questions with no 200", exactly.takenNever, 0],
    ["200s not in the database as that person's answer with that text (lost)", exactly.lost, 0],
    ["questions answered in the database without a 200", exactly.answeredWithoutReply, 0],
    ["questions `answered` / slots `finished`", `${exactly.questionsAnswered} / ${exactly.slotsFinished}`, `${exactly.questions} / ${exactly.questions}`],
    ["questions with exactly one `answered` event / one event job (done)", `${exactly.oneAnsweredEvent} / ${exactly.oneEventJob} (${exactly.eventJobsDone})`, `${exactly.questions} / ${exactly.questions}`],
    ["ApiAsk runs ended in Answered", exactly.runsAnswered, exactly.questions],
    ["questions with any of those more than once", exactly.doubled, 0],
    ["jobs queued, running or failed afterwards", exactly.jobsLeft, 0],
    ...(raceOutcome
      ? [
          ["races with exactly one 200 / the rest all 409", `${raceOutcome.exactlyOneWinner} / ${raceOutcome.restConflict}`, `${raceOutcome.races} / ${raceOutcome.races}`],
          ["race replies", [...raceOutcome.replies].map(([reply, count]) => `${count} × ${reply}`).join(", "), `${raceOutcome.races} × 200, ${raceOutcome.races * (RACERS - 1)} × 409`],
        ]
      : []),
    ["asks made / distinct Idempotency-Keys / with their question", `${askCounts.asks} / ${askCounts.distinctKeys} / ${askCounts.withQuestion}`, `${asksMade} / ${asksMade} / ${asksMade}`],
  ],
)}
${levelNotes.length > 0 ? `\nNot as expected: ${levelNotes.join("; ")}.\n` : ""}${serverErrorLines.length > 0 ? `\n${serverErrorLines.length} lines on the server's stderr (first: \`${serverErrorLines[0]!.slice(0, 200)}\`).\n` : ""}
${statementRows && statementRows.length > 0 ? `Statements by server time at ${maxLevel.connections} connections, per ${maxLevel.answers ? "answer" : "ask"} (pg_stat_statements):\n\n${table(["statement", "calls", "ms per call", "ms"], statementRows)}\n` : ""}`;

writeSection(NAME, markdown);
const broken = !exactlyOnceOk || !asksOk || levelNotes.length > 0 || wakes.some((each) => each.wrong > 0);
if (broken) process.exitCode = 1;
log(broken ? "something was not taken exactly once, or a request failed (see the section)" : "checks passed; see the section for the targets");
process.exit();
