import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createAuditorModel } from "@/examples/expense-review/auditor-script";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { startReview } from "@/examples/expense-review/start-review";
import { createRuntime } from "@/lib/runtime";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { adminPostgresUrl } from "./support/prerequisites";
import { faultRandom } from "./support/random";
import { countRows } from "./support/review-invariants";
import { type ServerProcess, spawnServer, startServer } from "./support/server";
import { until } from "./support/until";

const SLOTS = Number(process.env.PARLEY_FAULT_SLOTS ?? 1000);
/** The deadlines are spread over this window, which the servers are down across the middle of. */
const WINDOW_MS = 9_000;
const PORTS = [3154, 3155, 3156] as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`${SLOTS} waits with deadlines, the server down across many of them`, () => {
  let database: FaultDatabase | undefined;
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill9()));
    await database?.drop();
  });

  it("each expiry fires exactly once: the slot expires once, one expire job runs, the unfinished branch runs once", async () => {
    const random = faultRandom("expiries");
    database = await createFaultDatabase(adminPostgresUrl(), "expiry");
    const { sql, database: db } = database;
    const samId = database.people["sam@parley.test"]!;

    // Every review parks on the Auditor's question: run here, by four runtimes sharing the work.
    const model = createAuditorModel();
    const runtimes = Array.from({ length: 4 }, (_, index) => createRuntime({ db: db.db, workflows: [ReviewClaim], resolveModel: () => model, workerId: `setup-${index}` }));
    for (let start = 0; start < SLOTS; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, SLOTS - start) }, (_, offset) =>
          startReview(db.db, runtimes[0]!, {
            claim: { title: `Dinner ${start + offset}`, amountCents: 48_250, currency: "EUR", merchant: "Cervejaria Ramiro", incurredOn: "2026-11-03", description: "Dinner." },
            assigneeId: samId,
          }),
        ),
      );
    }
    await Promise.all(runtimes.map((runtime) => runtime.drain({ maxJobs: SLOTS })));
    expect(await countRows(sql, "select 1 from slots where status = 'open' and due_at is not null")).toBe(SLOTS);

    // The deadlines, a day or two away, are brought to the next seconds, one every few milliseconds in random order.
    const firstDue = Date.now() + 4_000;
    await sql`
      update slots set due_at = ${new Date(firstDue).toISOString()}::timestamptz + (ordinal * ${WINDOW_MS / SLOTS} * interval '1 millisecond')
      from (select id, row_number() over (order by md5(id::text || ${String(random.seed)})) - 1 as ordinal from slots) ordered
      where slots.id = ordered.id`;

    const options = (port: number) => ({ port, databaseUrl: database!.url, authSecret: randomBytes(33).toString("base64"), env: { PARLEY_JOB_LEASE_MS: "2000" } });
    const first = await startServer(options(PORTS[0]));
    servers.push(first);
    // Up for the first deadlines, then killed while it expires them; down across the middle of the window.
    const downAt = firstDue + random.int(1_500, 3_000);
    await sleep(downAt - Date.now());
    await first.kill9();
    const expiredBeforeTheGap = await countRows(sql, "select 1 from slots where status = 'expired'");
    const upAt = firstDue + random.int(5_500, 7_000);
    await sleep(upAt - Date.now());
    const dueWhileDown = await countRows(sql, `select 1 from slots where status = 'open' and due_at <= now()`);

    // Two instances come back at once and sweep the backlog together; one of them is killed again halfway.
    const [second, third] = [spawnServer(options(PORTS[1])), spawnServer(options(PORTS[2]))];
    servers.push(second, third);
    await Promise.all([second.ready(), third.ready()]);
    const backAt = Date.now();
    await sleep(random.int(300, 1_500));
    await third.kill9();

    await until(
      `all ${SLOTS} waits have expired and every job is done`,
      async () =>
        (await countRows(sql, "select 1 from slots where status <> 'expired'")) === 0 && (await countRows(sql, "select 1 from jobs where status <> 'done'")) === 0,
      { timeoutMs: 150_000, intervalMs: 250 },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)} (seed ${random.seed})\n${second.output().slice(-4_000)}`);
    });
    const caughtUpAt = Date.now();
    await second.stop();

    const context = `seed ${random.seed}`;
    // Each slot expired once, and queued exactly one expire job, which ran.
    expect(await countRows(sql, "select 1 from slots where status = 'expired' and finished_at is not null and wait_ms is not null"), context).toBe(SLOTS);
    expect(await countRows(sql, "select 1 from jobs where kind = 'expire'"), context).toBe(SLOTS);
    expect(await countRows(sql, "select slot_id from jobs where kind = 'expire' group by slot_id having count(*) <> 1"), context).toBe(0);
    expect(await countRows(sql, "select 1 from slots s where not exists (select 1 from jobs j where j.slot_id = s.id and j.kind = 'expire' and j.status = 'done')"), context).toBe(0);
    expect(await countRows(sql, "select 1 from run_events where kind = 'slot-expired'"), context).toBe(SLOTS);
    expect(await countRows(sql, "select data->>'slotId' from run_events where kind = 'slot-expired' group by 1 having count(*) <> 1"), context).toBe(0);
    // The Auditor's question got nothing (expired), once.
    expect(await countRows(sql, "select 1 from asks where status = 'nothing' and reason = 'expired'"), context).toBe(SLOTS);
    expect(await countRows(sql, "select data->>'questionId' from run_events where kind = 'nothing' group by 1 having count(*) <> 1"), context).toBe(0);
    // Each run's unfinished branch ran once: its questions marked expired, the run failed once, in Failed.
    expect(await countRows(sql, "select 1 from review_tasks where status = 'failed'"), context).toBe(SLOTS);
    expect(await countRows(sql, "select 1 from review_questions where status <> 'expired'"), context).toBe(0);
    expect(await countRows(sql, "select 1 from workflow_instances where status = 'failed' and state = 'Failed'"), context).toBe(SLOTS);
    expect(await countRows(sql, "select task_id from run_events where kind = 'failed' group by task_id having count(*) <> 1"), context).toBe(0);
    expect(await countRows(sql, "select task_id from run_events where kind = 'state-entered' and data->>'state' = 'Failed' group by task_id having count(*) <> 1"), context).toBe(0);
    expect(await countRows(sql, "select 1 from run_events where kind = 'failed'"), context).toBe(SLOTS);

    // Lateness: how long after its deadline each wait was expired, for those due while a server was up.
    const [lateness] = await sql<{ up: number | null; p50: number | null }[]>`
      select max(extract(epoch from finished_at - due_at)) filter (where due_at < ${new Date(downAt).toISOString()}::timestamptz) as up,
        percentile_cont(0.5) within group (order by extract(epoch from finished_at - due_at)) as p50
      from slots`;
    const workers = await countRows(sql, "select distinct locked_by from jobs where kind = 'expire'");
    console.log(
      `expiries (${context}): ${SLOTS} deadlines over ${WINDOW_MS / 1000} s; ${expiredBeforeTheGap} expired before the kill, ${dueWhileDown} fell due while no server was up; ` +
        `two servers back at once (one killed again) caught up in ${((caughtUpAt - backAt) / 1000).toFixed(1)} s; ` +
        `at most ${Number(lateness?.up ?? 0).toFixed(1)} s late while a server was up (median ${Number(lateness?.p50 ?? 0).toFixed(1)} s overall); ` +
        `expire jobs run by ${workers} workers; every expiry fired exactly once.`,
    );
    expect(dueWhileDown, "the gap should span many deadlines").toBeGreaterThan(SLOTS / 10);
  });
});
