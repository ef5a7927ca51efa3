import { randomBytes, randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { formatDecision } from "@/examples/expense-review/claim-brief";
import { createApiKey } from "@/lib/api-keys";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { type FlakyModelProvider, startFlakyModelProvider } from "./support/flaky-model-provider";
import { callAction, HttpClient, serverActionIds, startedTaskId } from "./support/http-client";
import { adminPostgresUrl } from "./support/prerequisites";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";

const PORT = 3162;
const LOADED_PORT = 3166;
const HANDING_BACK_PORT = 3168;
const TAKING_OVER_PORT = 3169;

/** One request of the load, as its client saw it end: the status it was answered with, or the network error that ended it unanswered. */
interface Sent {
  kind: "ask" | "answer";
  /** The ask's Idempotency-Key, or the id of the question answered: what the database is searched by afterwards. */
  key: string;
  status?: number;
  error?: string;
}

const DECISION_SCHEMA = { type: "object", required: ["decision"], properties: { decision: { description: "Go ahead?", enum: ["approve", "reject"] } } };

describe("a server sent SIGTERM (a deploy replacing it)", () => {
  let database: FaultDatabase | undefined;
  let server: ServerProcess | undefined;
  let other: ServerProcess | undefined;
  let provider: FlakyModelProvider | undefined;
  afterEach(async () => {
    await server?.kill9();
    await other?.kill9();
    await provider?.close();
    await database?.drop().catch(() => {});
    server = undefined;
    other = undefined;
    provider = undefined;
    database = undefined;
  });

  it("answers a held long-poll at once with the ask as it is and when to ask again, and exits 0 within its bound", async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "shutdown");
    // As `npm start` runs it: Next.js leaves the signal to Parley.
    server = await startServer({
      port: PORT,
      databaseUrl: database.url,
      authSecret: randomBytes(33).toString("base64"),
      env: { NEXT_MANUAL_SIG_HANDLE: "true", PARLEY_SHUTDOWN_TIMEOUT_MS: "10000" },
    });
    const { secret } = await createApiKey(database.database.db, { kind: "agent", name: "Deploy bot", by: null });
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const asked = await fetch(`${server.baseUrl}/api/v1/asks`, { method: "POST", headers, body: JSON.stringify({ to: "sam@parley.test", title: "Ship it?" }) });
    expect(asked.status).toBe(201);
    const { id } = (await asked.json()) as { id: string };

    const held = fetch(`${server.baseUrl}/api/v1/asks/${id}?wait=60`, { headers });
    // Long enough for the request to be held on the server.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const signalledAt = performance.now();
    process.kill(server.pid, "SIGTERM");

    const answer = await held;
    expect(performance.now() - signalledAt).toBeLessThan(5_000);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(await answer.json()).toMatchObject({ id, status: "open" });

    expect(await server.ended()).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalledAt).toBeLessThan(10_000);
    expect(server.output()).toContain("Parley: stopped.");
  });

  it("under load, answers every request it took (a request it did not take fails unanswered, and nothing of it is kept) and leaves no job running", async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "shutdown_load");
    server = await startServer({
      port: LOADED_PORT,
      databaseUrl: database.url,
      authSecret: randomBytes(33).toString("base64"),
      env: { NEXT_MANUAL_SIG_HANDLE: "true", PARLEY_SHUTDOWN_TIMEOUT_MS: "10000" },
    });
    const db = database.database.db;
    const { secret: agentKey } = await createApiKey(db, { kind: "agent", name: "Deploy bot", by: null });
    const { secret: samToken } = await createApiKey(db, { kind: "personal", name: "Sam's laptop", by: null, userId: database.people["sam@parley.test"]! });
    const baseUrl = server.baseUrl;
    const sent: Sent[] = [];
    let signalled = false;
    let next = 0;

    /** A request on the clients' keep-alive connections (fetch's own pool); a network error is recorded, not thrown. */
    async function send(kind: Sent["kind"], key: string, pathname: string, token: string, body: unknown, headers: Record<string, string> = {}) {
      const entry: Sent = { kind, key };
      sent.push(entry);
      try {
        const response = await fetch(`${baseUrl}${pathname}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        entry.status = response.status;
        return { status: response.status, json: (await response.json().catch(() => null)) as { question_id?: string } | null };
      } catch (error) {
        entry.error = String((error as { cause?: { code?: string; message?: string } }).cause?.code ?? (error as { cause?: Error }).cause?.message ?? error);
        return undefined;
      }
    }

    /** Asks and answers, as fast as the server answers, until a request finds it gone after the signal. */
    async function client() {
      for (;;) {
        const index = next++;
        const asked = await send("ask", `stop-under-load-${index}`, "/api/v1/asks", agentKey, { to: "sam@parley.test", title: `Ask ${index}`, response_schema: DECISION_SCHEMA }, {
          "idempotency-key": `stop-under-load-${index}`,
        });
        if (!asked) {
          if (signalled) return;
          throw new Error(`ask ${index} got no answer before the server was signalled: ${sent.at(-1)?.error}`);
        }
        expect([201, 200]).toContain(asked.status);
        const questionId = asked.json!.question_id!;
        // An ask taken as the server stops may have its question put by no one yet: a 404 is asked again, up to the lease of a job.
        for (let attempt = 0; ; attempt++) {
          const answered = await send("answer", questionId, `/api/v1/questions/${questionId}/answer`, samToken, { answers: { decision: "approve" } });
          if (!answered) {
            if (signalled) return;
            throw new Error(`the answer to ask ${index} got no answer before the server was signalled: ${sent.at(-1)?.error}`);
          }
          if (answered.status !== 404 || attempt >= 20) {
            expect(answered.status).toBe(200);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }

    const clients = Array.from({ length: 6 }, () => client());
    // Under way: some asks answered, the clients' connections kept alive between their requests.
    while (next < 30) await new Promise((resolve) => setTimeout(resolve, 20));
    const signalledAt = performance.now();
    signalled = true;
    process.kill(server.pid, "SIGTERM");
    await Promise.all(clients);

    expect(await server.ended()).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalledAt).toBeLessThan(10_000);
    expect(server.output()).toContain("Parley: stopped.");

    // Every job the server claimed is done, or queued again for another server: none is left running under its lease.
    const running = await database.sql`select kind, status, attempts from jobs where status = 'running'`;
    // A request that got no answer was not taken either: no ask made under its key, no answer recorded to its question.
    const unanswered = sent.filter((each) => each.status === undefined);
    const askKeys = unanswered.filter((each) => each.kind === "ask").map((each) => each.key);
    const answerIds = unanswered.filter((each) => each.kind === "answer").map((each) => each.key);
    const takenAsks = askKeys.length === 0 ? [] : await database.sql`select idempotency_key from api_asks where idempotency_key in ${database.sql(askKeys)}`;
    const takenAnswers = answerIds.length === 0 ? [] : await database.sql`select id from asks where id in ${database.sql(answerIds)} and status = 'answered'`;
    expect({ running: [...running], takenAsks: [...takenAsks], takenAnswers: [...takenAnswers] }).toEqual({ running: [], takenAsks: [], takenAnswers: [] });
    // Enough of the load met the stopping server to mean something.
    expect(sent.filter((each) => each.status !== undefined).length).toBeGreaterThan(30);
    console.log(
      `stopped under load: ${sent.length} requests, ${sent.filter((each) => each.status !== undefined).length} answered, ` +
        `${unanswered.length} unanswered (${[...new Set(unanswered.map((each) => each.error))].join(", ")}), in ${((performance.now() - signalledAt) / 1000).toFixed(1)} s`,
    );
  });

  it("hands back, at its bound, a job still running (a model call that does not answer), and another server runs it at once, not a lease later", async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "shutdown_hand_back");
    // The model holds the Auditor's call far longer than the server may take to stop.
    provider = await startFlakyModelProvider({ kind: "gateway-timeout", afterMs: 120_000 });
    const model = { PARLEY_MODEL_BASE_URL: provider.baseUrl, PARLEY_MODEL: "test-model", PARLEY_MODEL_API_KEY: "test-key" };
    const authSecret = randomBytes(33).toString("base64");
    // A lease far longer than the test: a job another server runs within it was handed back, not taken over.
    server = await startServer({
      port: HANDING_BACK_PORT,
      databaseUrl: database.url,
      authSecret,
      env: { ...model, NEXT_MANUAL_SIG_HANDLE: "true", PARLEY_SHUTDOWN_TIMEOUT_MS: "3000", PARLEY_JOB_LEASE_MS: "600000" },
    });
    const operator = new HttpClient(server.baseUrl);
    await operator.signIn("omar@parley.test", "omar-operator-demo");
    const started = await callAction(operator, {
      actionId: serverActionIds().get("app/(app)/runs/actions.ts#startRunAction")!,
      path: "/runs",
      args: [{ json: null }, { form: { workflow: "ReviewClaim", startToken: randomUUID(), title: "Taxi", amount: "34.00", currency: "EUR", merchant: "Lisbon Taxis", incurredOn: "2026-11-04", description: "Taxi to the client.", assigneeId: database.people["sam@parley.test"]! } }],
    });
    const taskId = startedTaskId(started);
    expect(taskId, `starting the review failed: ${started.status} ${started.body.slice(0, 300)}`).toBeDefined();
    const jobOf = async () =>
      (await database!.sql<{ id: string; status: string; locked_by: string | null; locked_until: Date | null; attempts: number }[]>`
        select j.id, j.status, j.locked_by, j.locked_until, j.attempts from jobs j join workflow_instances wi on wi.id = j.workflow_instance_id
        where wi.task_id = ${taskId!} and j.kind = 'enter'`)[0];
    await until("the Auditor's call is held by the model", () => provider!.requests() === 1 && true);
    expect(await jobOf()).toMatchObject({ status: "running", attempts: 1 });

    const signalledAt = performance.now();
    process.kill(server.pid, "SIGTERM");
    expect(await server.ended()).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalledAt).toBeLessThan(6_000);
    expect(server.output()).toContain("Parley: stopped at its bound (3 s): 1 unfinished job was handed back for another server to run at once.");
    // Queued again with its lease released, its attempt counted.
    expect(await jobOf()).toMatchObject({ status: "queued", locked_by: null, locked_until: null, attempts: 1 });

    // Another server, the model answering again, runs it as soon as it is up, and the run ends once.
    provider.behaviour = { kind: "reply", text: formatDecision({ decision: "rejected", reason: "A taxi to a client is fine, but this one was personal." }) };
    other = await startServer({ port: TAKING_OVER_PORT, databaseUrl: database.url, authSecret, env: model });
    await until("the other server runs the run to its end", async () => (await database!.sql`select 1 from review_tasks where id = ${taskId!} and status = 'completed'`).length === 1, {
      timeoutMs: 60_000,
    });
    expect(await jobOf()).toMatchObject({ status: "done", attempts: 2 });
    expect(provider.requests()).toBe(2);
    expect(await database.sql`select 1 from run_events where task_id = ${taskId!} and kind = 'completed'`).toHaveLength(1);
  });
});
