import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startAnsweringClients } from "./support/answering-clients";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { openEventStream } from "./support/event-stream";
import { HttpClient, serverActionIds } from "./support/http-client";
import { type PostgresCluster, startPostgresCluster } from "./support/postgres-cluster";
import { faultRandom } from "./support/random";
import { startReviewFeeder } from "./support/review-feeder";
import { everyReviewDone, expectAnswersOnceAndRunsDone } from "./support/review-invariants";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";

const CLUSTER_PORT = 30450;
const PORT = 3153;
/** How long after PostgreSQL is back the app has to serve again, by itself. */
const RECOVERY_BUDGET_MS = 15_000;
/** How long a page may take once the database is back (a loaded 2-core machine included). */
const PAGE_BUDGET_MS = 5_000;

describe("PostgreSQL restarted under load", () => {
  let cluster: PostgresCluster | undefined;
  let database: FaultDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill9();
    await database?.drop().catch(() => {});
    await cluster?.destroy();
  });

  it("the app recovers by itself: requests succeed, the worker resumes and live events arrive again, without restarting Node", async () => {
    const random = faultRandom("postgres restart");
    cluster = await startPostgresCluster(CLUSTER_PORT);
    database = await createFaultDatabase(cluster.url, "restart");
    const { sql, people } = database;
    server = await startServer({ port: PORT, databaseUrl: database.url, authSecret: randomBytes(33).toString("base64"), env: { PARLEY_JOB_LEASE_MS: "2000" } });
    const pid = server.pid;

    const sam = new HttpClient(server.baseUrl);
    await sam.signIn("sam@parley.test", "sam-assignee-demo");
    const lee = new HttpClient(server.baseUrl);
    await lee.signIn("lee@parley.test", "lee-assignee-demo");
    // Sam's screens hear of every question put to him, through the server's LISTEN connection.
    const stream = openEventStream(sam, "/api/events");
    const feeder = startReviewFeeder({ database: database.database, assigneeId: people["sam@parley.test"]!, createdBy: people["omar@parley.test"]!, unfinished: 12 });
    const clients = startAnsweringClients({
      sql,
      actionId: serverActionIds().get("app/(app)/questions/[id]/actions.ts#submitAnswerAction")!,
      people: [
        { client: sam, userId: people["sam@parley.test"]! },
        { client: lee, userId: people["lee@parley.test"]! },
      ],
      random,
    });

    await until("answers are being taken", () => clients.submissions.filter((each) => each.outcome === "answered").length >= 5, { timeoutMs: 60_000 });
    await until("live events arrive", () => stream.events.length > 0);
    const { stoppedAt, startedAt } = await cluster.restart();

    // Answers go through again, by themselves, soon after the database is back.
    const firstAnswer = await until(
      "an answer is taken after the restart",
      () => clients.submissions.find((each) => each.outcome === "answered" && each.sentAt > startedAt),
      { timeoutMs: RECOVERY_BUDGET_MS },
    );
    // Pages too: every one after that is served, promptly.
    const pages: string[] = [];
    let slowestPageMs = 0;
    for (let attempt = 0; attempt < 20; attempt++) {
      const sentAt = Date.now();
      const page = await sam.request(attempt % 2 === 0 ? "/inbox" : `/questions/${firstAnswer.questionId}`).catch((error: unknown) => ({ status: String(error) }));
      slowestPageMs = Math.max(slowestPageMs, Date.now() - sentAt);
      pages.push(`${sentAt - startedAt} ms after: ${page.status} in ${Date.now() - sentAt} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(pages.filter((page) => !/: 200 in \d+ ms$/.test(page) || Number(/in (\d+) ms$/.exec(page)?.[1]) > PAGE_BUDGET_MS), server.output().slice(-3_000)).toEqual([]);
    // The live events carry on: the server listens again.
    await until("a live event arrives after the restart", () => stream.events.some((event) => event.at > startedAt), { timeoutMs: RECOVERY_BUDGET_MS });

    // Work filed after the restart is run to the end, and so is what was in hand when the database went away.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await feeder.stop();
    await until("every review is completed and no job is left", () => everyReviewDone(sql), { timeoutMs: 120_000, intervalMs: 250 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n(seed ${random.seed}; server output:)\n${server?.output().slice(-5_000)}`);
    });
    await clients.stop();
    stream.close();
    expect(server.alive()).toBe(true);
    expect(server.pid).toBe(pid);

    // Answers told "something went wrong" were all sent before the app was seen serving again.
    const submissions = clients.submissions;
    expect(submissions.filter((each) => each.outcome === "unexpected" || each.outcome === "unsent"), `seed ${random.seed}`).toEqual([]);
    const failed = submissions.filter((each) => each.outcome === "failed");
    expect(failed.filter((each) => (each.endedAt ?? 0) < stoppedAt - 5_000 || each.sentAt > firstAnswer.endedAt!)).toEqual([]);
    const tally = await expectAnswersOnceAndRunsDone(sql, submissions, `seed ${random.seed}`);

    console.log(
      `postgres restart (seed ${random.seed}): down ${((startedAt - stoppedAt) / 1000).toFixed(1)} s; first answer taken ${((firstAnswer.endedAt! - startedAt) / 1000).toFixed(1)} s after it was back; ` +
        `${failed.length} answers failed while it was away (told so, none recorded twice); ${tally.reviews} reviews completed, ${tally.acknowledged} answers acknowledged, all recorded; ` +
        `${stream.events.filter((event) => event.at > startedAt).length} live events after the restart; slowest page after it ${slowestPageMs} ms; same server process throughout.`,
    );
  });
});
