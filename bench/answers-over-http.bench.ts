/**
 * Benchmark 4 — answers over HTTP (`npm run bench -- answers-over-http`; `answers-over-api` is the
 * same with `BENCH_HTTP_ROAD=api`).
 *
 * Many people answer different questions at once through the real answer action of a production
 * build (`next start` on PostgreSQL), with the multipart body and headers Chromium sends — or, on the
 * API's road, through `POST /api/v1/questions/{id}/answer` with each person's own token. The
 * questions come from real runs: reviews the scripted Auditor parks on (its asks), and reviews it
 * approved whose filer is asked the Reimbursement questionnaire. Measured: accepted answers per
 * second, latency, the server's RSS, how long the resumed runs take to drain; then the database
 * is counted — every answer taken exactly once, every run resumed once — and a slice of duplicated
 * answers (two people, or one person twice, at the same moment) must each have exactly one winner.
 */
import { fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import http from "node:http";
import path from "node:path";
import { countExactlyOnce, type ExactlyOnceCounts } from "./support/http-checks";
import { serverActionId, signIn } from "./support/http-actions";
import { type DatabaseActivity, openDatabaseStats } from "./support/http-database-stats";
import type { AnswerRoad, LoadItem, LoadJob, LoadReport, LoadResult } from "./support/http-load";
import { buildIfNeeded, cpuMs, postgresCpuMs, postmasterPid, rssMiB, sampleRss, startServer } from "./support/http-server";
import {
  AGENT_ANSWER_TEXT,
  answerAgentAsksServerSide,
  BENCH_PASSWORD,
  createPeople,
  drainRuns,
  listOpenQuestions,
  QUESTIONNAIRE_FIELDS,
  recreateDatabase,
  startParkedReviews,
} from "./support/http-setup";
import { describeMachine } from "./support/machine";
import { table, writeSection } from "./support/results";
import { figure, summarise } from "./support/stats";
import { serverNodeOptions } from "../scripts/build-if-needed.mjs";

/** The answers' road: the question page's action (as a browser sends it) or the person's API route. */
const ROAD: AnswerRoad = (() => {
  const road = process.env.BENCH_HTTP_ROAD?.trim() || "action";
  if (road !== "action" && road !== "api") throw new Error(`BENCH_HTTP_ROAD must be action or api, not ${road}`);
  return road;
})();
const NAME = ROAD === "api" ? "answers-over-api" : "answers-over-http";
const root = path.resolve(import.meta.dirname, "..");

/** A whole-number setting from the environment, or its default. */
function setting(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not ${raw}`);
  return value;
}

const PEOPLE = setting("BENCH_HTTP_PEOPLE", 400);
const REVIEWS = setting("BENCH_HTTP_REVIEWS", 2_000);
/** Percent of the reviews answered (untimed) before the load, so their filer has a questionnaire open. */
const QUESTIONNAIRE_PERCENT = setting("BENCH_HTTP_QUESTIONNAIRE_PERCENT", 33);
const RACES = setting("BENCH_HTTP_RACES", 100);
/** Calls of the same action without a session afterwards: what Next.js's action pipeline costs by itself. */
const FLOOR_CALLS = setting("BENCH_HTTP_FLOOR_CALLS", 2_000);
const WARMUP = setting("BENCH_HTTP_WARMUP", 200);
const CONNECTIONS = setting("BENCH_HTTP_CONNECTIONS", 64);
const LOADERS = Math.max(1, setting("BENCH_HTTP_LOADERS", 2));
const PORT = setting("BENCH_HTTP_PORT", 3143);
/** Server processes sharing the database and its job queue (ports PORT, PORT + 1, …); the clients are spread over them. */
const SERVERS = Math.max(1, setting("BENCH_HTTP_SERVERS", 1));
const BUILD_DIR = process.env.BENCH_HTTP_BUILD_DIR?.trim() || ".next-http";
/** A folder to write the server's CPU profile to (`node --cpu-prof`); off unless set. */
const CPU_PROFILE_DIR = process.env.BENCH_HTTP_CPU_PROFILE?.trim() || undefined;
/** NODE_OPTIONS for the server: `BENCH_HTTP_SERVER_NODE_OPTIONS`, else what `npm start` gives it (its heap limit). */
const SERVER_NODE_OPTIONS = process.env.BENCH_HTTP_SERVER_NODE_OPTIONS?.trim() || serverNodeOptions({ ...process.env, NODE_OPTIONS: "" });
const SETUP_PARALLEL = setting("BENCH_HTTP_SETUP_PARALLEL", 6);
/** `resumedPerSecond`: answers taken *and* their runs moved on (the resumed turn done, the next state entered). */
const TARGETS = { answersPerSecond: 300, resumedPerSecond: 200, lost: 0, double: 0, rssMiB: 250 };

const serverUrl = process.env.BENCH_POSTGRES_URL;
if (!serverUrl) throw new Error("BENCH_POSTGRES_URL is not set: run this through `npm run bench -- answers-over-http`");

const command = [
  ...Object.entries(process.env)
    .filter(([key]) => (key.startsWith("BENCH_") && key !== "BENCH_POSTGRES_URL") || key.startsWith("PARLEY_BENCH_"))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`),
  "npm run bench --",
  NAME,
].join(" ");
const log = (line: string) => console.log(`[${NAME}] ${line}`);
const seconds = (ms: number) => `${figure(ms / 1000)} s`;

// ── Set-up (not timed) ────────────────────────────────────────────────────────────────────────────
const machine = await describeMachine(serverUrl);
log(`building into ${BUILD_DIR} if needed…`);
let phase = performance.now();
buildIfNeeded(BUILD_DIR);
log(`build ready in ${seconds(performance.now() - phase)}`);

const DATABASE = "parley_bench_http";
const databaseUrl = await recreateDatabase(serverUrl, DATABASE);
// The set-up runs the app's own runtime (lib/app-runtime.ts), on the database the server will use.
process.env.DATABASE_URL = databaseUrl;
const { getDatabase, closeDatabase } = await import("@/lib/database");
const { getAppRuntime, stopAppRuntime } = await import("@/lib/app-runtime");
const database = await getDatabase();
const app = await getAppRuntime();

phase = performance.now();
const { people, operatorId } = await createPeople(database, PEOPLE);
const personIndex = new Map(people.map((person, index) => [person.id, index]));
log(`starting ${REVIEWS} reviews for ${PEOPLE} people and letting the Auditor park on each…`);
await startParkedReviews(database, app, { count: REVIEWS, people, operatorId, parallel: SETUP_PARALLEL });
const parked = await listOpenQuestions(database);
if (parked.length !== REVIEWS) throw new Error(`expected ${REVIEWS} parked reviews, found ${parked.length} open questions`);
const toQuestionnaire = parked.filter((_, index) => index % 100 < QUESTIONNAIRE_PERCENT);
log(`answering ${toQuestionnaire.length} of their asks server-side, so that their filers get the Reimbursement questionnaire…`);
await answerAgentAsksServerSide(app, toQuestionnaire, SETUP_PARALLEL);
await drainRuns(database, app, SETUP_PARALLEL);
await stopAppRuntime();
const open = await listOpenQuestions(database);
const setupMs = performance.now() - phase;
log(`${open.length} open questions (${open.filter((q) => q.kind === "agent").length} asks, ${open.filter((q) => q.kind === "questionnaire").length} questionnaires) in ${seconds(setupMs)}`);

// ── The plan: who answers what, in which client ───────────────────────────────────────────────────
let seed = 7;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const shuffled = <T>(items: readonly T[]) => {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
};
// The action posts the form's inputs (the question's id a hidden one); the API takes each field's text as typed.
const fieldsFor = (question: (typeof open)[number]): Record<string, string> =>
  ROAD === "api"
    ? question.kind === "agent"
      ? { answer: AGENT_ANSWER_TEXT }
      : { ...QUESTIONNAIRE_FIELDS, urgent: "yes" }
    : question.kind === "agent"
      ? { answer: AGENT_ANSWER_TEXT, questionId: question.questionId }
      : { ...QUESTIONNAIRE_FIELDS, questionId: question.questionId };
const order = shuffled(open);
const raced = order.filter((question) => question.kind === "agent").slice(0, RACES);
const racedIds = new Set(raced.map((question) => question.questionId));
const single = order.filter((question) => !racedIds.has(question.questionId));
const warmup = single.slice(0, WARMUP);
const measured = single.slice(WARMUP);
const item = (question: (typeof open)[number]): LoadItem => ({ type: "answer", questionId: question.questionId, person: personIndex.get(question.assigneeId)!, fields: fieldsFor(question) });
// Half the races are two people (every assignee is a candidate of an Auditor's ask), half one person's double submit.
const race = (question: (typeof open)[number], index: number): LoadItem => {
  const assignee = personIndex.get(question.assigneeId)!;
  const other = index % 2 === 0 ? (assignee + 1 + Math.floor(random() * (PEOPLE - 1))) % PEOPLE : assignee;
  return { type: "race", questionId: question.questionId, people: [assignee, other], fields: fieldsFor(question) };
};
const measuredItems: LoadItem[] = measured.map(item);
// The races go in among the measured answers, evenly spread.
raced.forEach((question, index) => measuredItems.splice(Math.floor(((index + 0.5) * measuredItems.length) / raced.length) + index, 0, race(question, index)));

/** Splits items over loaders × clients, a person's questions always in the same client (one tab per person). */
function distribute(items: readonly LoadItem[]): LoadItem[][][] {
  const clients = Array.from({ length: LOADERS }, () => Array.from({ length: Math.ceil(CONNECTIONS / LOADERS) }, (): LoadItem[] => []));
  const total = clients.length * clients[0]!.length;
  for (const each of items) {
    const person = each.type === "answer" ? each.person : each.people[0];
    const slot = person % total;
    clients[slot % LOADERS]![Math.floor(slot / LOADERS)]!.push(each);
  }
  return clients;
}

// ── The server, and everyone signed in over HTTP ─────────────────────────────────────────────────
if (CPU_PROFILE_DIR) mkdirSync(CPU_PROFILE_DIR, { recursive: true });
const serverStartedAt = Date.now();
// One secret for all of them: a session signed in on one is good on every other, as behind a load balancer.
const authSecret = randomBytes(33).toString("base64");
const servers: Awaited<ReturnType<typeof startServer>>[] = [];
for (let index = 0; index < SERVERS; index++) {
  servers.push(
    await startServer({
      buildDir: BUILD_DIR,
      port: PORT + index,
      databaseUrl,
      authSecret,
      ...(CPU_PROFILE_DIR ? { cpuProfileDir: CPU_PROFILE_DIR } : {}),
      nodeOptions: SERVER_NODE_OPTIONS,
    }),
  );
}
const server = servers[0]!;
/** The servers' CPU time together, milliseconds. */
const serversCpuMs = () => servers.reduce((sum, each) => sum + cpuMs(each.pid), 0);
/** The largest server process's RSS: the target is per process. */
const serversRssMiB = () => Math.max(...servers.map((each) => rssMiB(each.pid)));
const rssAtStart = serversRssMiB();
const buildPath = path.join(root, BUILD_DIR);
const signInId = serverActionId(buildPath, "app/(auth)/login/actions.ts", "signInWithPassword");
const answerId = serverActionId(buildPath, "app/(app)/questions/[id]/actions.ts", "submitAnswerAction");
log(`${servers.length === 1 ? "server" : "servers"} ${servers.map((each) => `${each.pid} on ${each.base.origin}`).join(", ")}; ${ROAD === "api" ? `a personal token for each of ${PEOPLE} people` : `signing in ${PEOPLE} people through the sign-in action`}…`);
phase = performance.now();
const cookies: Record<number, string> = {};
const tokens: Record<number, string> = {};
if (ROAD === "api") {
  const { createApiKey } = await import("@/lib/api-keys");
  const made = await Promise.all(people.map((person) => createApiKey(database.db, { kind: "personal", name: `Bench token ${person.email}`, by: person.id, userId: person.id })));
  made.forEach((key, index) => (tokens[index] = key.secret));
} else {
  const signInAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let nextPerson = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (nextPerson < people.length) {
        const index = nextPerson++;
        cookies[index] = await signIn(signInAgent, server.base, signInId, people[index]!.email, BENCH_PASSWORD);
      }
    }),
  );
  signInAgent.destroy();
}
const signInMs = performance.now() - phase;
const rssAfterSignIn = serversRssMiB();
log(`${ROAD === "api" ? "tokens made" : "signed in"} in ${seconds(signInMs)}`);

// ── Load generators: child processes, so their work is not the server's ──────────────────────────
const loaders = await Promise.all(
  Array.from({ length: LOADERS }, () => {
    const child = fork(path.join(import.meta.dirname, "support", "http-load.ts"), [], {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, BENCH_HTTP_SOCKETS: String(2 * Math.ceil(CONNECTIONS / LOADERS)) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    return new Promise<typeof child>((resolve, reject) => {
      child.once("message", () => resolve(child));
      child.once("exit", (code) => reject(new Error(`a load generator exited (${code}) before it was ready`)));
    });
  }),
);

async function runLoad(items: readonly LoadItem[]): Promise<{ results: LoadResult[]; loaderCpuMs: number }> {
  const split = distribute(items);
  const reports = await Promise.all(
    loaders.map(
      (child, index) =>
        new Promise<LoadReport>((resolve) => {
          child.once("message", (message: { type: "done"; report: LoadReport }) => resolve(message.report));
          const job: LoadJob = { bases: servers.map((each) => each.base.origin), road: ROAD, actionId: answerId, cookies, tokens, clients: split[index]! };
          child.send({ type: "run", job });
        }),
    ),
  );
  return { results: reports.flatMap((report) => report.results), loaderCpuMs: reports.reduce((sum, report) => sum + report.cpuMs, 0) };
}

/** Jobs queued or running; one count per status, so that each reads its partial index. */
async function jobsPending(): Promise<number> {
  const [row] = await database.postgres!<{ count: number }[]>`
    select (select count(*) from jobs where status = 'queued') + (select count(*) from jobs where status = 'running') as count`;
  return Number(row?.count ?? 0);
}

async function waitForDrain(): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  while ((await jobsPending()) > 0) {
    if (Date.now() > deadline) throw new Error("the resumed runs did not drain within 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

log(`warm-up: ${warmup.length} answers…`);
const warm = await runLoad(warmup.map(item));
await waitForDrain();

const rssAfterWarmup = serversRssMiB();
const stats = await openDatabaseStats(serverUrl, DATABASE);
await stats.reset();
const postmaster = postmasterPid(path.join(process.env.PARLEY_TEST_POSTGRES_DIR ?? "", "data"));
const cpuBefore = { server: serversCpuMs(), postgres: postmaster ? postgresCpuMs(postmaster) : Number.NaN };
log(`measured: ${measuredItems.length} answers and races over ${CONNECTIONS} connections from ${LOADERS} load generators…`);
const rss = servers.map((each) => sampleRss(each.pid));
const loadStart = Date.now();
const load = await runLoad(measuredItems);
const loadEnd = Math.max(...load.results.map((result) => result.end));
const cpuAtLastAnswer = { server: serversCpuMs(), postgres: postmaster ? postgresCpuMs(postmaster) : Number.NaN };
await waitForDrain();
const drainedAt = Date.now();
const cpuAfter = { server: serversCpuMs(), postgres: postmaster ? postgresCpuMs(postmaster) : Number.NaN };
const rssSamples = rss.flatMap((samples) => samples.stop());
// Which resumed turns (jobs) ran during the load and which after it: the server's CPU splits into the answer path and the worker's turns.
const [jobsRun] = await database.postgres!<{ during: number; after: number }[]>`
  select count(*) filter (where finished_at <= ${new Date(loadEnd).toISOString()}::timestamptz)::int as during,
    count(*) filter (where finished_at > ${new Date(loadEnd).toISOString()}::timestamptz)::int as after
  from jobs where status = 'done' and finished_at >= ${new Date(loadStart).toISOString()}::timestamptz`;
const activity: DatabaseActivity = await stats.read();
await stats.close();

// The floor, in the same run: the same action (or route), same body and headers, from a signed-out
// caller — it reads the cookie (or the Authorization header), finds no session (key) and says so.
// Nothing of Parley's runs but that.
log(`floor: ${FLOOR_CALLS} calls of the answer ${ROAD === "api" ? "route without a key" : "action without a session"}…`);
const floorCpuBefore = serversCpuMs();
const floorStart = Date.now();
const floor = await runLoad(
  Array.from({ length: FLOOR_CALLS }, (_, index): LoadItem => {
    const questionId = randomUUID();
    return { type: "answer", questionId, person: index % PEOPLE, fields: ROAD === "api" ? { answer: AGENT_ANSWER_TEXT } : { answer: AGENT_ANSWER_TEXT, questionId }, signedOut: true };
  }),
);
const floorEnd = Math.max(...floor.results.map((result) => result.end));
const floorCpuMs = (serversCpuMs() - floorCpuBefore) / FLOOR_CALLS;
const floorPerSecond = FLOOR_CALLS / ((floorEnd - floorStart) / 1000);
const floorRefused = floor.results.filter((result) => (ROAD === "api" ? result.status === 401 : result.status === 200 && result.outcome === "unavailable")).length;
for (const child of loaders) child.send({ type: "exit" });

// ── Afterwards: count in the database ─────────────────────────────────────────────────────────────
const allResults = [...warm.results, ...load.results];
/** A reply the road gives on purpose: the action answers 200 with its outcome, the route 200/409/422 with its code. */
const replied = (result: LoadResult) => (ROAD === "api" ? result.outcome !== "unknown" && result.outcome !== "error" : result.status === 200);
const accepted = allResults.filter((result) => result.status === 200 && result.outcome === "answered");
const counts: ExactlyOnceCounts = await countExactlyOnce(database.db, {
  agentAsks: open.filter((question) => question.kind === "agent").map((question) => question.questionId),
  questionnaires: open.filter((question) => question.kind === "questionnaire").map((question) => question.questionId),
  accepted: accepted.map((result) => ({ questionId: result.questionId, userId: people[result.person]!.id })),
});
const byQuestion = new Map<string, LoadResult[]>();
for (const result of load.results.filter((each) => each.race)) byQuestion.set(result.questionId, [...(byQuestion.get(result.questionId) ?? []), result]);
const races = [...byQuestion.values()];
const raceWon = races.filter((pair) => pair.filter((result) => result.outcome === "answered").length === 1).length;
const raceConflict = races.filter((pair) => pair.some((result) => result.outcome === "unavailable" && /already answered|already_answered/.test(result.message))).length;
const raceBothWon = races.filter((pair) => pair.filter((result) => result.outcome === "answered").length > 1).length;
const loserReplies = new Map<string, number>();
for (const result of races.flat().filter((each) => each.outcome !== "answered")) {
  // Who won and when differ from race to race: the replies are counted by their words without them.
  const words = result.message
    .replace(/^.*? already answered this question .*? ago \([^)]*\)/, "(someone) already answered this question (when)")
    .replace(/Already answered by .*? at \S+?\.?$/, "Already answered by (someone) at (when).");
  const reply = `HTTP ${result.status} ${result.outcome}: ${words.slice(0, 160)}`;
  loserReplies.set(reply, (loserReplies.get(reply) ?? 0) + 1);
}
log(`the races' losing replies: ${[...loserReplies].map(([reply, count]) => `${count} × ${reply}`).join("; ")}`);
const [taskStates] = await database.postgres!<{ open: number }[]>`select count(*)::int as open from asks where status = 'open'`;

const errors = allResults.filter((result) => !replied(result) || (result.outcome !== "answered" && !result.race));
const failedRequests = allResults.filter((result) => !replied(result)).length;
const agentAskIds = new Set(open.filter((question) => question.kind === "agent").map((question) => question.questionId));
const acceptedAgentAsks = accepted.filter((result) => agentAskIds.has(result.questionId)).length;
const serverErrorLines = servers.flatMap((each) => each.errors().split("\n")).filter((line) => line.trim() !== "");
if (serverErrorLines.length > 0) log(`the server's stderr:\n${serverErrorLines.slice(0, 40).join("\n")}`);
for (const each of servers) await each.stop();
await closeDatabase();
const profileWindow = `--window=${figure((loadStart - serverStartedAt) / 1000)},${figure((loadEnd - serverStartedAt) / 1000)}`;
if (CPU_PROFILE_DIR) log(`CPU profile (measured load: ${profileWindow}, drain until ${figure((drainedAt - serverStartedAt) / 1000)} s): ${readdirSync(CPU_PROFILE_DIR).filter((file) => file.endsWith(".cpuprofile")).map((file) => path.join(CPU_PROFILE_DIR, file)).join(", ")}`);

// ── Figures ───────────────────────────────────────────────────────────────────────────────────────
const measuredAccepted = load.results.filter((result) => result.status === 200 && result.outcome === "answered").length;
const wallMs = loadEnd - loadStart;
const answersPerSecond = measuredAccepted / (wallMs / 1000);
// What the server keeps up with: answers taken *and* their runs moved on.
const sustainedPerSecond = measuredAccepted / ((drainedAt - loadStart) / 1000);
const latency = summarise(load.results.map((result) => result.end - result.start));
const duringLoad = rssSamples.filter(([at]) => at <= loadEnd).map(([, mib]) => mib);
const secondHalf = rssSamples.filter(([at]) => at >= loadStart + wallMs / 2 && at <= loadEnd).map(([, mib]) => mib);
const rssPeak = Math.max(...rssSamples.map(([, mib]) => mib));
const rssPeakLoad = Math.max(...duringLoad);
const rssSteady = summarise(secondHalf).median;
const drainMs = drainedAt - loadEnd;
const perAnswer = (value: number) => figure(value / measuredAccepted);
// Server CPU = answers × (answer path) + jobs × (a resumed turn): the drain gives the second, the load then the first.
const workerMsPerJob = (cpuAfter.server - cpuAtLastAnswer.server) / Math.max(1, jobsRun!.after);
const answerPathMs = (cpuAtLastAnswer.server - cpuBefore.server - workerMsPerJob * jobsRun!.during) / measuredAccepted;
const cores = availableParallelism();
const totalCpuPerAnswer = (cpuAfter.server - cpuBefore.server + (cpuAfter.postgres - cpuBefore.postgres) + load.loaderCpuMs) / measuredAccepted;
const lost = counts.lost;
const double = counts.acceptedTwice + counts.doubled + raceBothWon;
const pass = (ok: boolean) => (ok ? "pass" : "**fail**");

const statementRows = activity.byQuery.slice(0, 12).map((row) => [
  `\`${row.query.replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 110)}\``,
  figure(row.calls / measuredAccepted),
  figure(row.totalMs / row.calls),
  figure(row.totalMs / measuredAccepted),
]);

const workerConcurrency = process.env.PARLEY_WORKER_CONCURRENCY?.trim() || "4 (the default)";
const roadWords =
  ROAD === "api"
    ? "through `POST /api/v1/questions/{id}/answer` with their own personal token (`Authorization: Bearer …`, `{ answers: { path: text } }`, each field's text as typed)"
    : "through `submitAnswerAction` with the multipart body and headers Chromium sends (captured from the question page: `_1_answer` / `_1_method`, `_1_urgent`, `_1_currency`, `_1_attendees`, `_1_questionId`, React's `$ACTION_…` fields, root `[null,\"$K1\"]`; `Next-Action`, `Next-Router-State-Tree`, session cookie)";
const markdown = `
## ${ROAD === "api" ? "4b. Answers over the HTTP API, and their runs resumed" : "4. Answers over HTTP"}

${machine}
- Command: \`${command}\`
- Server: \`next start\` (production build in \`${BUILD_DIR}\`) on PostgreSQL, ${servers.length === 1 ? "one Node process (its worker loop runs the resumed turns in it" : `${servers.length} Node processes sharing the database and its job queue, the clients spread evenly over them (each one's worker loop runs resumed turns`}, ${workerConcurrency} jobs at once: \`PARLEY_WORKER_CONCURRENCY\`), ${servers.length === 1 ? "pid" : "each pid"} sampled for VmRSS every 100 ms${CPU_PROFILE_DIR ? "; under `node --cpu-prof`" : ""}; NODE_OPTIONS=\`${SERVER_NODE_OPTIONS}\` (as \`npm start\` runs it unless \`BENCH_HTTP_SERVER_NODE_OPTIONS\` says otherwise).
- Load: ${CONNECTIONS} concurrent clients over kept-alive HTTP/1.1 connections, in ${LOADERS} child processes (${figure(load.loaderCpuMs / 1000)} s of their CPU in the measured stretch); each client is a few people, answering their own questions one request at a time ${roadWords}.
- Data: ${PEOPLE} assignees, each ${ROAD === "api" ? "with a personal token" : "signed in over HTTP through the sign-in action"} (${seconds(signInMs)}); ${REVIEWS} reviews started through \`startReview\` and run by the app's runtime until the scripted Auditor parked on each (every assignee is a candidate of its asks, so each slot names ${PEOPLE} people); ${toQuestionnaire.length} of them answered beforehand so their filer has the Reimbursement questionnaire open. Set-up ${seconds(setupMs)}, not timed.
- Answered: ${warmup.length} warm-up answers (not in the figures), then ${measured.length} answers (${measured.filter((q) => q.kind === "agent").length} Auditor asks → the run resumes and asks the questionnaire; ${measured.filter((q) => q.kind === "questionnaire").length} questionnaires → the run completes) and ${raced.length} races (two requests at once for one ask: ${Math.ceil(raced.length / 2)} by two people, ${Math.floor(raced.length / 2)} by one person twice).

${table(
  ["", "measured", "target", ""],
  [
    ["Accepted answers per second (wall time, first request to last reply)", figure(answersPerSecond), `≥ ${TARGETS.answersPerSecond}`, pass(answersPerSecond >= TARGETS.answersPerSecond)],
    ["Answers taken *and* their runs resumed per second (first request until the last resumed turn is done)", figure(sustainedPerSecond), `≥ ${TARGETS.resumedPerSecond}`, pass(sustainedPerSecond >= TARGETS.resumedPerSecond)],
    ["Lost answers (accepted, not in the database as that person's)", lost, TARGETS.lost, pass(lost === TARGETS.lost)],
    ["Double answers (accepted twice, or recorded/resumed more than once)", double, TARGETS.double, pass(double === TARGETS.double)],
    ["Server RSS, peak during the load", `${figure(rssPeakLoad)} MiB`, `≤ ${TARGETS.rssMiB} MiB`, pass(rssPeakLoad <= TARGETS.rssMiB)],
  ],
)}

${table(
  ["Latency per request (ms)", "median", "p95", "max", "requests"],
  [[`answer ${ROAD === "api" ? "route" : "action"}, reply read to the end`, figure(latency.median), figure(latency.p95), figure(latency.max), latency.count]],
)}

- Wall time ${seconds(wallMs)} for ${measuredAccepted} accepted answers; ${errors.length} requests failed or were refused outside the races${errors.length > 0 ? ` (first: HTTP ${errors[0]!.status} ${errors[0]!.outcome} ${errors[0]!.message.slice(0, 120)})` : ""}; ${serverErrorLines.length} lines on the server's stderr.
- Server RSS: ${figure(rssAtStart)} MiB once ready, ${figure(rssAfterSignIn)} MiB after ${ROAD === "api" ? "the tokens were made" : "the sign-ins"}, ${figure(rssAfterWarmup)} MiB after the warm-up; during the load steady ${figure(rssSteady)} MiB (median over its second half) and peak ${figure(rssPeakLoad)} MiB; ${figure(rssPeak)} MiB at most until drained.
- Resumed runs drained ${seconds(drainMs)} after the last reply (the worker ${servers.length === 1 ? "loop in the server process" : "loops in the server processes"}): answers taken *and* their runs moved on, ${figure(sustainedPerSecond)} per second from the first request until drained.
- CPU per accepted answer: server ${perAnswer(cpuAtLastAnswer.server - cpuBefore.server)} ms during the load and ${perAnswer(cpuAfter.server - cpuBefore.server)} ms including the drain — about ${figure(answerPathMs)} ms in the answer request and ${figure(workerMsPerJob)} ms per resumed-run job (${jobsRun!.during} jobs ran during the load, ${jobsRun!.after} after; ${figure((jobsRun!.during + jobsRun!.after) / measuredAccepted)} per answer); PostgreSQL ${perAnswer(cpuAfter.postgres - cpuBefore.postgres)} ms; load generators ${perAnswer(load.loaderCpuMs)} ms.
- Ceiling of this machine for this road: ${cores} cores ÷ ${figure(totalCpuPerAnswer)} ms of CPU per answer and its resumed run (servers, PostgreSQL and load generators, load and drain together) = ${figure((cores * 1000) / totalCpuPerAnswer)} answers a second, were every core busy all the time.
- Floor, in the same run after the drain: the same ${ROAD === "api" ? "route" : "action"} called ${FLOOR_CALLS} times without a ${ROAD === "api" ? "key (Next.js's route handling and the Authorization header's check" : "session (Next.js's action pipeline and the cookie read"}, nothing else; ${floorRefused} refused as expected) ran at ${figure(floorPerSecond)} calls/s and ${figure(floorCpuMs)} ms of server CPU each — an accepted answer costs ${figure(answerPathMs / floorCpuMs)}× that in its request alone, ${figure((cpuAfter.server - cpuBefore.server) / measuredAccepted / floorCpuMs)}× with its resumed run.
- Database per accepted answer, load and drain together: ${activity.statements === null ? "statements not counted (no pg_stat_statements)" : `${perAnswer(activity.statements)} statements + ${perAnswer(activity.transactionControl ?? 0)} BEGIN/COMMIT`}, ${perAnswer(activity.commits)} commits, ${perAnswer(activity.rollbacks)} rollbacks.

Counted in the database afterwards (warm-up and measured answers, ${counts.questions} questions):

${table(
  ["", "count", "expected"],
  [
    ["answers accepted by the server (of the questions answered)", counts.accepted, `${counts.questions} (one per question${failedRequests > 0 ? `; ${failedRequests} requests got no reply` : ""})`],
    ["questions with two accepted answers", counts.acceptedTwice, 0],
    ["accepted answers not in the database as that person's (lost)", counts.lost, 0],
    ["questions answered in the database without an accepted reply", counts.answeredWithoutReply, 0],
    ["questions `answered`", counts.questionsAnswered, counts.accepted],
    ["slots `finished`", counts.slotsFinished, counts.accepted],
    ["questions with exactly one `answered` event", counts.oneAnsweredEvent, counts.accepted],
    ["questions with exactly one event job (done)", `${counts.oneEventJob} (${counts.eventJobsDone})`, counts.accepted],
    ["Auditor asks with exactly one tool result in conversation_messages", counts.oneToolResult, acceptedAgentAsks],
    ["Auditor asks with exactly one `resumed` event", counts.oneResumed, acceptedAgentAsks],
    ["questions with any of those more than once", counts.doubled, 0],
    ["jobs queued, running or failed afterwards", counts.jobsLeft, 0],
    ["Auditor runs moved on to Reimbursing (waiting on the questionnaire)", counts.agentRunsMovedOn, acceptedAgentAsks],
    ["questionnaire runs Completed", counts.questionnaireRunsCompleted, counts.accepted - acceptedAgentAsks],
    ["races with exactly one winner / a conflict for the other", `${raceWon} / ${raceConflict}`, `${races.length} / ${races.length}`],
  ],
)}

${statementRows.length > 0 ? `Statements by server time (pg_stat_statements, load and drain), per accepted answer:\n\n${table(["statement", "calls", "ms per call", "ms"], statementRows)}\n` : ""}
Open questions left afterwards: ${taskStates?.open ?? "?"} (the questionnaires the answered asks led to).
`;

writeSection(NAME, markdown);
const failed =
  answersPerSecond < TARGETS.answersPerSecond || sustainedPerSecond < TARGETS.resumedPerSecond || lost !== 0 || double !== 0 || rssPeakLoad > TARGETS.rssMiB || counts.jobsLeft !== 0 || raceWon !== races.length;
if (lost !== 0 || double !== 0 || counts.jobsLeft !== 0 || raceWon !== races.length) process.exitCode = 1;
log(failed ? "targets missed (see the section)" : "all targets met");
process.exit();
