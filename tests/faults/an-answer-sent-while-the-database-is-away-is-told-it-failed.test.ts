import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { answerFields } from "./support/answering-clients";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { callAction, HttpClient, serverActionIds } from "./support/http-client";
import { type PostgresCluster, startPostgresCluster } from "./support/postgres-cluster";
import { startReviewFeeder } from "./support/review-feeder";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";
import type { QuestionSpec } from "@/lib/questions/question-spec";

const CLUSTER_PORT = 30451;
const PORT = 3158;

describe("an answer sent while the database is away", () => {
  let cluster: PostgresCluster | undefined;
  let database: FaultDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill9();
    await database?.drop().catch(() => {});
    await cluster?.destroy();
  });

  it("is told it failed on our side (and may be sent again), never that the question is gone", async () => {
    cluster = await startPostgresCluster(CLUSTER_PORT);
    database = await createFaultDatabase(cluster.url, "outage");
    const { sql, people } = database;
    server = await startServer({ port: PORT, databaseUrl: database.url, authSecret: randomBytes(33).toString("base64") });
    const sam = new HttpClient(server.baseUrl);
    await sam.signIn("sam@parley.test", "sam-assignee-demo");
    const feeder = startReviewFeeder({ database: database.database, assigneeId: people["sam@parley.test"]!, createdBy: people["omar@parley.test"]!, unfinished: 1 });
    const question = await until("Sam is asked", async () => (await sql<{ id: string; spec: QuestionSpec }[]>`select id, spec from asks where status = 'open' and slot_id is not null`)[0]);
    await feeder.stop();

    const submit = (token: string) =>
      callAction(sam, {
        actionId: serverActionIds().get("app/(app)/questions/[id]/actions.ts#submitAnswerAction")!,
        path: `/questions/${question.id}`,
        args: [{ json: null }, { form: { questionId: question.id, ...answerFields(question.spec, token) } }],
      });

    await cluster.stop();
    const duringOutage = await submit("t1xaway");
    expect(duringOutage.status).toBe(200);
    expect(duringOutage.result).toMatchObject({ outcome: "unavailable", code: "internal", message: "Something went wrong on our side. Nothing you entered was lost." });
    expect(server.alive()).toBe(true);

    await cluster.start();
    // A connection of its own: the test's pooled ones were cut by the stop.
    const check = postgres(database.url, { max: 1, onnotice: () => {} });
    // Sent again until taken: the first tries may still meet the database warming up (and be told so).
    await until(
      "the answer is taken once the database is back",
      async () => {
        const outcome = (await submit("t2xback")).result as { outcome?: string; code?: string } | undefined;
        if (outcome?.outcome === "answered") return true;
        // Taken by a try whose reply was lost: then it is the one recorded, and later tries are told so.
        return outcome?.code === "conflict" && (await check`select 1 from asks where id = ${question.id} and answer::text like '%t2xback%'`).length === 1;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(await check`select 1 from asks where id = ${question.id} and answer::text like '%t2xback%'`).toHaveLength(1);
    expect(await check`select 1 from asks where answer::text like '%t1xaway%'`).toHaveLength(0);
    await check.end();
  });
});
