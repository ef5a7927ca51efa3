import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startAnsweringClients } from "./support/answering-clients";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { HttpClient, serverActionIds } from "./support/http-client";
import { adminPostgresUrl } from "./support/prerequisites";
import { faultRandom } from "./support/random";
import { startReviewFeeder } from "./support/review-feeder";
import { everyReviewDone, expectAnswersOnceAndRunsDone } from "./support/review-invariants";
import { type ServerProcess, spawnServer, startServer } from "./support/server";
import { until } from "./support/until";

/** How many times the server is killed; `PARLEY_FAULT_KILL_CYCLES` for a longer soak. */
const CYCLES = Number(process.env.PARLEY_FAULT_KILL_CYCLES ?? 20);
/** Short, so a dead server's jobs are taken over within seconds (a live one renews its lease). */
const LEASE_MS = 2_000;
/** Reviews kept unfinished while the server is being killed, so there is always something to answer and resume. */
const UNFINISHED_TARGET = 40;
const PORT = 3152;


describe("a server killed with SIGKILL at random points while answers are submitted and runs resumed", () => {
  let database: FaultDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill9();
    await database?.drop();
  });

  it("loses no answer, writes no tool result twice and leaves no run stuck", async () => {
    const random = faultRandom("kill -9");
    database = await createFaultDatabase(adminPostgresUrl(), "kill");
    const { sql, database: db, people } = database;
    const options = { port: PORT, databaseUrl: database.url, authSecret: randomBytes(33).toString("base64"), env: { PARLEY_JOB_LEASE_MS: String(LEASE_MS) } };

    const feeder = startReviewFeeder({ database: db, assigneeId: people["sam@parley.test"]!, createdBy: people["omar@parley.test"]!, unfinished: UNFINISHED_TARGET });
    server = await startServer(options);
    const sam = new HttpClient(server.baseUrl);
    await sam.signIn("sam@parley.test", "sam-assignee-demo");
    const lee = new HttpClient(server.baseUrl);
    await lee.signIn("lee@parley.test", "lee-assignee-demo");
    const clients = startAnsweringClients({
      sql,
      actionId: serverActionIds().get("app/(app)/questions/[id]/actions.ts#submitAnswerAction")!,
      // Two tabs of Sam's and one of Lee's (a candidate too): they sometimes race for one question.
      people: [
        { client: sam, userId: people["sam@parley.test"]! },
        { client: sam.copy(), userId: people["sam@parley.test"]! },
        { client: lee, userId: people["lee@parley.test"]! },
      ],
      random,
    });

    let killsWhileStarting = 0;
    let restarting = 0;
    const started = Date.now();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await new Promise((resolve) => setTimeout(resolve, random.int(150, 2_000)));
      await server.kill9();
      let next = spawnServer(options);
      // Now and then, kill it again while it starts up (migrating, opening its worker).
      if (random.next() < 0.2) {
        await new Promise((resolve) => setTimeout(resolve, random.int(20, 600)));
        await next.kill9();
        killsWhileStarting++;
        next = spawnServer(options);
      }
      server = next;
      const restartedAt = Date.now();
      await next.ready();
      restarting += Date.now() - restartedAt;
    }
    await feeder.stop();
    const killPhaseSeconds = (Date.now() - started) / 1000;

    // The last server carries on while the clients answer what is left: every run must end.
    await until("every review is completed and no job is left", () => everyReviewDone(sql), { timeoutMs: 180_000, intervalMs: 250 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n(seed ${random.seed}; last server's output:)\n${server?.output().slice(-5_000)}`);
    });
    await clients.stop();
    await server.stop();

    // A killed server answers nothing; a live one answers every well-formed answer with taken or too late.
    expect(clients.submissions.filter((each) => each.outcome === "unexpected" || each.outcome === "failed"), `seed ${random.seed}`).toEqual([]);
    const tally = await expectAnswersOnceAndRunsDone(sql, clients.submissions, `seed ${random.seed}`);

    console.log(
      `kill -9 (seed ${random.seed}): ${CYCLES} cycles in ${killPhaseSeconds.toFixed(0)} s (${killsWhileStarting} more kills while starting up; ` +
        `${(restarting / CYCLES / 1000).toFixed(1)} s to serve again on average); ` +
        `${tally.reviews} reviews completed, ${tally.questions} questions answered once each; ${tally.acknowledged} answers acknowledged, all recorded; ` +
        `${tally.inFlight} in flight at a kill (${tally.inFlightTaken} taken, the rest answered again); ${tally.conflicts} lost a race and were told so; ` +
        `${tally.jobsTakenOver} jobs taken over after a kill.`,
    );
    // Enough happened for the kills to land on work: on average at least one answer taken per cycle.
    expect(tally.acknowledged).toBeGreaterThanOrEqual(CYCLES);
  });
});
