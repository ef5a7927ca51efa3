// Benchmark 3, the inbox at scale: a month's-worth Parley in PostgreSQL (1M questions, 100k open,
// 1k people), the production build serving it, and a load tool in a second process driving the real
// pages over loopback — the inbox (a typical person's and the busiest person's), the overdue view and
// the admins' SLA page — timed inside the server; plus EXPLAIN (ANALYZE, BUFFERS) of every query those
// pages run. Run with `npm run bench -- inbox-at-scale`.
import postgres from "postgres";
import { openDatabase } from "../db/client";
import { migrateParley } from "../lib/database";
import { describeMachine } from "./support/machine";
import { table, writeSection } from "./support/results";
import { figure, summarise } from "./support/stats";
import { ADMIN_COUNT, BENCH_PASSWORD, benchEmail, generateInboxData, INBOX_DATA_DEFAULTS, type InboxDataParameters } from "./support/inbox-data";
import { capturingDb, type ExplainedStatement, explainStatement } from "./support/inbox-explain";
import { type LoadScenario, runLoad } from "./support/inbox-load";
import { buildIfNeeded, INBOX_BUILD_DIR, signIn, startServer } from "./support/inbox-server";
import { INBOX_TARGETS, pageStatements, type PageKind, REFRESH_LABEL } from "./support/inbox-pages";

/** Changing what the generator makes changes this, so an older database is never reused by mistake. */
const GENERATOR_VERSION = 3;
const DATABASE = "parley_inbox_at_scale";

const adminUrl = process.env.BENCH_POSTGRES_URL;
if (!adminUrl) throw new Error("BENCH_POSTGRES_URL is not set: run this through `npm run bench -- inbox-at-scale`");
const parameters: InboxDataParameters = {
  ...INBOX_DATA_DEFAULTS,
  ...(process.env.PARLEY_BENCH_INBOX_QUESTIONS ? { questions: Number(process.env.PARLEY_BENCH_INBOX_QUESTIONS) } : {}),
  ...(process.env.PARLEY_BENCH_INBOX_OPEN ? { open: Number(process.env.PARLEY_BENCH_INBOX_OPEN) } : {}),
};
/** Reuse a database this generator made with the same parameters (for working on the queries); off by default. */
const reuse = process.env.PARLEY_BENCH_INBOX_REUSE === "1";
const COMMAND = `${reuse ? "PARLEY_BENCH_INBOX_REUSE=1 " : ""}npm run bench -- inbox-at-scale`;
const CONCURRENCY = Number(process.env.PARLEY_BENCH_INBOX_CONCURRENCY ?? 4);
const ROUNDS = Number(process.env.PARLEY_BENCH_INBOX_ROUNDS ?? 200);
const THROUGHPUT_ROUNDS = 3;
const THROUGHPUT_SECONDS = 4;

const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  return url.toString();
})();
const log = (line: string) => console.log(line);

// 1. The data: generated afresh (or, when asked, reused if made by this generator with these parameters).
const key = JSON.stringify({ version: GENERATOR_VERSION, ...parameters });
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
const [existing] = await admin<{ comment: string | null }[]>`
  select shobj_description(oid, 'pg_database') as comment from pg_database where datname = ${DATABASE}`;
let generated: { key: string; now: string; seconds: number; counts: Record<string, number> } | undefined;
try {
  generated = existing?.comment ? JSON.parse(existing.comment) : undefined;
} catch {
  generated = undefined;
}
let dataNote: string;
if (reuse && generated?.key === key) {
  dataNote = `reused (PARLEY_BENCH_INBOX_REUSE=1): generated ${generated.now} in ${figure(generated.seconds)} s`;
  log(`inbox-at-scale: reusing ${DATABASE}, generated ${generated.now}`);
  const database = await openDatabase({ kind: "postgres", url: databaseUrl });
  await migrateParley(database);
  await database.close();
} else {
  log(`inbox-at-scale: generating ${parameters.questions} questions (${parameters.open} open) for ${parameters.users} people…`);
  await admin.unsafe(`drop database if exists ${DATABASE} with (force)`);
  await admin.unsafe(`create database ${DATABASE}`);
  const database = await openDatabase({ kind: "postgres", url: databaseUrl });
  await migrateParley(database);
  await database.close();
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const made = await generateInboxData(client, parameters, new Date(), log);
  await client.end();
  generated = { key, now: made.now.toISOString(), seconds: made.seconds, counts: made.counts };
  await admin.unsafe(`comment on database ${DATABASE} is '${JSON.stringify(generated).replaceAll("'", "''")}'`);
  dataNote = `generated in this run in ${figure(made.seconds)} s (server-side SQL: generate_series, temp tables, multi-row INSERT … SELECT; then VACUUM ANALYZE)`;
}
await admin.end();

// 2. Who the pages are fetched as: people near the median of open questions, the busiest person, an admin.
const client = postgres(databaseUrl, { max: 4, onnotice: () => {} });
const people = await client<{ id: string; email: string; open: number; overdue: number }[]>`
  with parties as (
    select distinct s.id, party, s.due_at from slots s cross join unnest(s.candidate_ids || s.assignee_id) party
     where s.status = 'open' and exists (select 1 from asks a where a.slot_id = s.id and a.status = 'open' and a.reason is null)
  )
  select u.id, u.email, count(p.id)::int as open, count(p.id) filter (where p.due_at <= now())::int as overdue
    from users u left join parties p on p.party = u.id
   where 'assignee' = any(u.roles)
   group by u.id, u.email order by open, u.email`;
const median = Math.floor(people.length / 2);
const typical = people.slice(median - 1, median + 2);
const busiest = people.at(-1)!;
const adminPerson = { email: benchEmail(1) };
const [sizes] = await client<{ finished_7d: number; finished_all: number; open_by_band: Record<string, number> }[]>`
  select (select count(*)::int from slots where status in ('finished', 'expired') and finished_at >= now() - interval '7 days') as finished_7d,
         (select count(*)::int from slots where status in ('finished', 'expired')) as finished_all,
         (select jsonb_object_agg(band, n) from (
            select case when due_at is null then 'no deadline' when due_at <= now() then 'breached'
                        when due_at - now() < interval '1 hour' or (due_at - now()) < (due_at - opened_at) * 0.25 then 'at risk' else 'on time' end as band,
                   count(*) as n
              from slots where status = 'open' group by 1) bands) as open_by_band`;

// 3. The statements each page runs, as the application sends them, EXPLAINed.
const capturing = capturingDb(client);
const now = new Date();
const pages: { kind: PageKind; title: string; path: string; userIds: string[] }[] = [
  { kind: "inbox", title: "Inbox, typical person", path: "/inbox", userIds: typical.map((person) => person.id) },
  { kind: "inbox", title: "Inbox, busiest person", path: "/inbox", userIds: [busiest.id] },
  { kind: "overdue", title: "Overdue, typical person", path: "/inbox?view=overdue", userIds: typical.map((person) => person.id) },
  { kind: "overdue", title: "Overdue, busiest person", path: "/inbox?view=overdue", userIds: [busiest.id] },
  { kind: "sla", title: "SLA page (admin; last 7 days, no filters)", path: "/admin/sla", userIds: [] },
];
const explained = new Map<string, ExplainedStatement[]>();
for (const page of pages) {
  const userId = page.userIds[Math.floor(page.userIds.length / 2)] ?? "";
  const before = capturing.statements.length;
  await pageStatements(capturing, page.kind, userId, now);
  const statements = capturing.statements.slice(before);
  const results: ExplainedStatement[] = [];
  for (const [index, statement] of statements.entries()) {
    const siblings = statements.filter((other) => other.label === statement.label);
    const label = siblings.length > 1 ? `${statement.label} (${siblings.indexOf(statement) + 1}/${siblings.length})` : statement.label;
    results.push({ ...(await explainStatement(client, statement)), label: `${index + 1}. ${label}` });
  }
  explained.set(page.title, results);
}

// 4. The production build, served against this database.
buildIfNeeded();
// Hold the open slots that fall due during the run, so the server's SLA sweep (FOR UPDATE SKIP
// LOCKED) leaves them as they are: every request sees the same data. Reads are not blocked by row locks.
const holder = await client.reserve();
await holder.unsafe("begin");
const [held] = await holder.unsafe<{ count: number }[]>(
  "with held as (select id from slots where status = 'open' and due_at <= now() + interval '2 hours' for update) select count(*)::int as count from held",
);
const server = await startServer(databaseUrl);
let section: string;
try {
  const cookieOf = new Map<string, string>();
  for (const email of [...typical.map((person) => person.email), busiest.email, adminPerson.email]) {
    cookieOf.set(email, await signIn(server.baseUrl, email, BENCH_PASSWORD));
  }
  const emailOf = new Map(people.map((person) => [person.id, person.email]));
  const scenarios: LoadScenario[] = pages.map((page) => ({
    name: page.title,
    path: page.path,
    cookies: (page.kind === "sla" ? [adminPerson.email] : page.userIds.map((id) => emailOf.get(id)!)).map((email) => cookieOf.get(email)!),
  }));
  for (const scenario of scenarios) {
    const response = await fetch(new URL(scenario.path, server.baseUrl), { headers: { cookie: scenario.cookies[0]! } });
    // Read to the end: an unread body holds the connection open, and the server would not stop.
    const html = await response.text();
    if (response.status !== 200 || !html.includes("Sign out")) throw new Error(`${scenario.path} answered ${response.status} to ${scenario.name}, not a signed-in page`);
  }

  // 5. Warm up, then the interleaved latency run, then throughput scenario by scenario in turns.
  log(`inbox-at-scale: warming up, then ${ROUNDS} rounds of ${scenarios.length} pages on ${CONCURRENCY} connections…`);
  await runLoad({ kind: "interleaved", run: "warm", baseUrl: server.baseUrl, scenarios, rounds: 5, concurrency: CONCURRENCY });
  const sequential = await runLoad({ kind: "interleaved", run: "one", baseUrl: server.baseUrl, scenarios, rounds: Math.ceil(ROUNDS / 4), concurrency: 1 });
  const loaded = await runLoad({ kind: "interleaved", run: "load", baseUrl: server.baseUrl, scenarios, rounds: ROUNDS, concurrency: CONCURRENCY });
  log("inbox-at-scale: throughput…");
  const throughput = await runLoad({ kind: "throughput", run: "rate", baseUrl: server.baseUrl, scenarios, rounds: THROUGHPUT_ROUNDS, seconds: THROUGHPUT_SECONDS, concurrency: CONCURRENCY });
  await new Promise((resolve) => setTimeout(resolve, 200));

  const latencyRows = (run: typeof loaded) =>
    scenarios.map((scenario, index) => {
      const samples = run.samples.filter((sample) => sample.scenario === scenario.name);
      const failed = samples.filter((sample) => sample.status !== 200);
      if (failed.length > 0) throw new Error(`${scenario.name}: ${failed.length} requests failed (${failed[0]!.status})`);
      const timed = samples.map((sample) => server.serverTimes.get(sample.id)).filter((entry) => entry !== undefined);
      if (timed.length !== samples.length) throw new Error(`${scenario.name}: the server timed ${timed.length} of ${samples.length} requests`);
      const onServer = summarise(timed.map((entry) => entry.serverMs));
      const cpu = summarise(timed.map((entry) => entry.cpuMs));
      const onClient = summarise(samples.map((sample) => sample.clientMs));
      const target = INBOX_TARGETS[pages[index]!.kind];
      return {
        cells: [
          scenario.name,
          `\`${scenario.path}\``,
          samples.length,
          figure(onServer.median),
          `**${figure(onServer.p95)}**`,
          figure(onClient.median),
          figure(onClient.p95),
          figure(cpu.median),
          `${figure(summarise(samples.map((sample) => sample.bytes)).median / 1024)} KiB`,
          `≤ ${target} ms`,
          onServer.p95 <= target ? "pass" : "**fail**",
        ],
        pass: onServer.p95 <= target,
      };
    });
  const header = ["Page", "Path", "Requests", "Server median (ms)", "Server p95 (ms)", "Client median (ms)", "Client p95 (ms)", "Server CPU median (ms)", "HTML", "Target (server p95)", "Result"];
  const loadedRows = latencyRows(loaded);
  const sequentialRows = latencyRows(sequential);

  const statementSections = [...explained.entries()].map(([title, statements]) => {
    const total = (some: ExplainedStatement[]) => figure(some.reduce((sum, statement) => sum + statement.executionMs, 0));
    const refresh = statements.filter((statement) => statement.label.includes(REFRESH_LABEL));
    const perRequest = statements.filter((statement) => !refresh.includes(statement));
    return [
      `**${title}** — ${perRequest.length} statements a request, ${total(perRequest)} ms in all (run one after another here; the page runs some at once)` +
        (refresh.length > 0 ? `; the history's refresh, at most once a minute: ${refresh.length} statements, ${total(refresh)} ms` : ""),
      "",
      table(
        ["Query", "Execution median (ms)", "Planning (ms)", "Rows", "Buffers hit / read"],
        statements.map((statement) => [statement.label, figure(statement.executionMs), figure(statement.planningMs), statement.rows, `${statement.sharedHit} / ${statement.sharedRead}`]),
      ),
      "",
      "<details><summary>Plans</summary>",
      "",
      ...statements.map((statement) => `${statement.label}: \`${statement.sql}\`\n\n\`\`\`\n${statement.shape}\n\`\`\`\n`),
      "</details>",
    ].join("\n");
  });

  const count = (name: string) => generated!.counts[name] ?? 0;
  section = [
    "## 3. Inbox at scale",
    "",
    await describeMachine(adminUrl),
    `- Command: \`${COMMAND}\``,
    `- Build: \`next build\` into \`${INBOX_BUILD_DIR}\`, served by \`next start\` (production) on loopback with PostgreSQL at default settings (shared_buffers ${(await client<{ value: string }[]>`select current_setting('shared_buffers') as value`)[0]!.value}).`,
    "",
    "**Data** (database `" + DATABASE + "`, " + dataNote + "):",
    `${count("users")} people (${ADMIN_COUNT} admins, 20 operators, the rest assignees; one in 25 also an operator), ${count("review tasks")} review tasks over as many claims, ` +
      `${count("questions")} questions (${count("questions") - count("questionnaires")} Auditor asks, ${count("questionnaires")} Reimbursement questionnaires), ${count("open questions")} open; ` +
      `slots: ${count("open slots")} open, ${count("finished slots")} answered, ${count("expired slots")} expired, ${count("closed slots")} closed with nothing, over ${parameters.historyDays} days ` +
      `(more recent, more work); ${count("conversation messages")} conversation messages, ${count("run events")} run events. ` +
      `Open waits by clock: ${Object.entries(sizes!.open_by_band).map(([band, count]) => `${count} ${band}`).join(", ")}. ` +
      `Answered or expired in the SLA page's default period (7 days): ${sizes!.finished_7d} of ${sizes!.finished_all}. ` +
      `An Auditor question is open to the filer and three teammates; a questionnaire to the filer alone. ` +
      `People: typical = the three assignees around the median of answerable open questions (${typical.map((person) => `${person.open} open, ${person.overdue} overdue`).join("; ")}); ` +
      `busiest = ${busiest.open} open, ${busiest.overdue} overdue; ${people.length} assignees in all.`,
    "",
    `**Measured**: server time is taken inside the \`next start\` process (a preloaded hook, \`bench/support/inbox-request-timer.mjs\`), from Node handing over the parsed request to the last byte of the response written — the whole page, session check, queries and render included (pages stream, so no Server-Timing header could carry it). ` +
      `Server CPU is the server process's CPU time over the request (user + system): the page's own cost one at a time, shared with whatever overlapped it under load. ` +
      `Client time is what the load tool (\`bench/support/inbox-load.ts\`, a separate Node process, keep-alive HTTP on loopback) saw. ` +
      `The pages are interleaved: every round requests each page once, in a rotating order; signed in through next-auth's credentials endpoint as each person. ` +
      `During the run ${held!.count} open slots falling due within two hours are row-locked, so the server's SLA sweep (which skips locked rows) leaves the data unchanged.`,
    "",
    "**What the pages do** (so the figures can be read): the inbox counts every open question the person may answer by view and reads one page of 50 (soonest due first; a \"Next 50\" link pages on after the last one shown) in one statement, and \"Answered by me\" from three short index scans; " +
      "the SLA page lists outstanding work 50 at a time in the order of an index of open slots, offers the list of people to reassign to in the one row being reassigned, reads the filter choices by a loose index scan, counts open work by age from the open slots' index, " +
      "and shows the period's SLA numbers, longest waits and time-to-answer bars from a history it works out (exactly, with percentile_cont over every wait) at most once a minute per period and server process — the statements of that refresh are EXPLAINed below, and a request that happens to trigger one, or runs beside one, is in the figures.",
    "",
    `Under load: ${CONCURRENCY} connections, ${ROUNDS} rounds (${loaded.samples.length} requests in ${figure(loaded.wallMs / 1000)} s, ${figure(loaded.samples.length / (loaded.wallMs / 1000))} pages/s over the mix):`,
    "",
    table(header, loadedRows.map((row) => row.cells)),
    "",
    `One at a time: 1 connection, ${Math.ceil(ROUNDS / 4)} rounds:`,
    "",
    table(header, sequentialRows.map((row) => row.cells)),
    "",
    `Throughput: each page alone for ${THROUGHPUT_SECONDS} s on ${CONCURRENCY} connections, pages in turn, ${THROUGHPUT_ROUNDS} turns:`,
    "",
    table(
      ["Page", "Pages/s (median of turns)", "Turns"],
      scenarios.map((scenario) => [scenario.name, figure(summarise(throughput.rates[scenario.name]!).median), throughput.rates[scenario.name]!.map((rate) => figure(rate)).join(", ")]),
    ),
    "",
    `**Queries**: \`EXPLAIN (ANALYZE, BUFFERS)\` of each statement the page runs (captured from the application's own query functions with the same parameters), median of 5 runs, before the server started:`,
    "",
    ...statementSections,
  ].join("\n");
  const failures = loadedRows.filter((row) => !row.pass).length;
  log(failures === 0 ? "inbox-at-scale: every target met" : `inbox-at-scale: ${failures} page(s) over target`);
} catch (error) {
  console.error(server.output().slice(-5000));
  throw error;
} finally {
  await server.stop();
  await holder.unsafe("rollback");
  holder.release();
  await client.end();
}
writeSection("inbox-at-scale", section);
