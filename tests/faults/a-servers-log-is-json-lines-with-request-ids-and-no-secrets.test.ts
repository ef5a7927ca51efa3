import { randomBytes } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { newWebhookSecret } from "@/lib/notifiers";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { HttpClient } from "./support/http-client";
import { adminPostgresUrl } from "./support/prerequisites";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";

// Outside 3000–3300, which the shared machines' sessions use for their own servers.
const PORT = 3431;

/** A port nothing listens on: the global webhook's receiver is down, so its deliveries fail and are logged. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface LogLine {
  level: string;
  time: string;
  msg: string;
  requestId?: string;
  taskId?: string;
  questionId?: string;
  status?: number;
  route?: string;
  err?: { message?: string; stack?: string };
}

describe("a production server's log, on PostgreSQL with a password, a webhook secret and a metrics token", () => {
  let database: FaultDatabase;
  let server: ServerProcess;
  let role: string;
  let admin: postgres.Sql;
  /** Every secret the server was given or was sent: none may appear anywhere in what it printed. */
  const secrets: Record<string, string> = {};
  /** Each request's id as its answer returned it, by what the request was. */
  const requestIds: Record<string, string> = {};
  let ask: { id: string; question_id: string };

  beforeAll(async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "logs");
    // A role of its own with a password, so DATABASE_URL carries one (the test cluster may trust any password; the server still holds it).
    role = `parley_logs_${randomBytes(3).toString("hex")}`;
    secrets.databasePassword = `db-${randomBytes(12).toString("hex")}`;
    admin = postgres(adminPostgresUrl(), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create role ${role} login superuser password '${secrets.databasePassword}'`);
    const url = new URL(database.url);
    url.username = role;
    url.password = secrets.databasePassword;

    secrets.authSecret = randomBytes(33).toString("base64");
    secrets.webhookSecret = newWebhookSecret();
    secrets.metricsToken = `metrics-${randomBytes(12).toString("hex")}`;
    const agent = await createApiKey(database.database.db, { kind: "agent", name: "Deploy bot", by: null });
    secrets.agentKey = agent.secret;
    secrets.agentWebhookSecret = agent.webhookSecret!;
    const sam = database.people["sam@parley.test"]!;
    secrets.personalToken = (await createApiKey(database.database.db, { kind: "personal", name: "Sam's terminal", by: sam, userId: sam })).secret;
    secrets.wrongKey = `pk_${randomBytes(24).toString("base64url")}`;
    secrets.wrongPassword = `wrong-${randomBytes(9).toString("hex")}`;
    secrets.demoPassword = "omar-operator-demo";

    // JSON lines are the default for a production server on PostgreSQL (PARLEY_LOG_FORMAT is not set): NODE_ENV as
    // `next start` and the image set it, where the suite's own (vitest's `test`) would be inherited.
    server = await startServer({
      port: PORT,
      databaseUrl: url.toString(),
      authSecret: secrets.authSecret,
      env: {
        NODE_ENV: "production",
        NEXT_MANUAL_SIG_HANDLE: "true",
        PARLEY_WEBHOOK_URL: `http://127.0.0.1:${await closedPort()}/parley-events`,
        PARLEY_WEBHOOK_SECRET: secrets.webhookSecret,
        PARLEY_METRICS_TOKEN: secrets.metricsToken,
        // The webhook delivery in hand when it stops retries its closed receiver for seconds; a bound inside the harness's
        // five seconds before SIGKILL lets the server always say how it stopped.
        PARLEY_SHUTDOWN_TIMEOUT_MS: "3000",
      },
    });
    const agentHeaders = { authorization: `Bearer ${secrets.agentKey}`, "content-type": "application/json" };

    // An agent asks (with a callback its key signs), and reads the ask back under an X-Request-Id of its own.
    const asked = await fetch(`${server.baseUrl}/api/v1/asks`, {
      method: "POST",
      headers: agentHeaders,
      body: JSON.stringify({ to: "sam@parley.test", title: "Ship billing 2.4?", callback_url: "https://hooks.parley.test/asks" }),
    });
    expect(asked.status).toBe(201);
    ask = (await asked.json()) as typeof ask;
    requestIds.ask = asked.headers.get("x-request-id")!;
    const read = await fetch(`${server.baseUrl}/api/v1/asks/${ask.id}`, { headers: { ...agentHeaders, "x-request-id": "agent-trace-7f3a9c" } });
    expect(read.status).toBe(200);
    requestIds.read = read.headers.get("x-request-id")!;

    // A key that is not one, then the person declines the question with their personal token.
    const refused = await fetch(`${server.baseUrl}/api/v1/asks`, { headers: { authorization: `Bearer ${secrets.wrongKey}` } });
    expect(refused.status).toBe(401);
    requestIds.refused = refused.headers.get("x-request-id")!;
    const declined = await fetch(`${server.baseUrl}/api/v1/questions/${ask.question_id}/nothing`, {
      method: "POST",
      headers: { authorization: `Bearer ${secrets.personalToken}`, "content-type": "application/json" },
      body: JSON.stringify({ reason: "declined", note: "Not mine to decide." }),
    });
    expect(declined.status).toBe(200);
    requestIds.declined = declined.headers.get("x-request-id")!;

    // Sign-ins with a wrong password and the right one; a scrape with the metrics token.
    const omar = new HttpClient(server.baseUrl);
    await expect(omar.signIn("omar@parley.test", secrets.wrongPassword)).rejects.toThrow(/signing in/);
    await omar.signIn("omar@parley.test", secrets.demoPassword);
    secrets.sessionCookie = [...omar.cookies].find(([name]) => name.endsWith("session-token"))![1];
    const scraped = await fetch(`${server.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${secrets.metricsToken}` } });
    expect(scraped.status).toBe(200);

    // A request that fails on Parley's side (its table is away for a moment), carrying secrets of the caller's own in its
    // body: the failed query's error, logged, names its parameters.
    secrets.callbackToken = `cb-${randomBytes(12).toString("hex")}`;
    secrets.metadataToken = `md-${randomBytes(12).toString("hex")}`;
    await database.sql`alter table api_asks rename to api_asks_away`;
    try {
      const failed = await fetch(`${server.baseUrl}/api/v1/asks`, {
        method: "POST",
        headers: agentHeaders,
        body: JSON.stringify({
          to: "sam@parley.test",
          title: "Roll back billing 2.4?",
          callback_url: `https://hooks.parley.test/asks?token=${secrets.callbackToken}`,
          metadata: { reply_token: secrets.metadataToken, reply_auth: `Bearer ${secrets.agentKey}` },
        }),
      });
      expect(failed.status).toBe(500);
      requestIds.failed = failed.headers.get("x-request-id")!;
    } finally {
      await database.sql`alter table api_asks_away rename to api_asks`;
    }

    // The global webhook's receiver is down: its failed delivery of the question is logged.
    await until("the failed webhook delivery is logged", () => server.output().includes("through webhook failed"));
    await server.stop();
  });

  afterAll(async () => {
    await server?.kill9();
    await database?.drop().catch(() => {});
    await admin?.unsafe(`drop role if exists ${role}`).catch(() => {});
    await admin?.end();
  });

  /** The server's JSON lines: every line it printed that starts as JSON. */
  function jsonLines(): LogLine[] {
    return server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine);
  }

  it("prints every line after Next.js's own start banner as JSON with a level, an ISO time and a message", () => {
    const lines = server.output().split("\n").filter((line) => line.trim() !== "");
    const firstJson = lines.findIndex((line) => line.startsWith("{"));
    expect(firstJson).toBeGreaterThanOrEqual(0);
    for (const line of lines.slice(firstJson)) {
      const parsed = JSON.parse(line) as LogLine;
      expect(parsed).toMatchObject({ level: expect.stringMatching(/^(trace|debug|info|warn|error|fatal)$/), time: expect.any(String), msg: expect.any(String) });
      expect(new Date(parsed.time).toISOString()).toBe(parsed.time);
    }
    // What Parley says at start and on stopping is among them.
    const messages = jsonLines().map((line) => line.msg);
    expect(messages).toContain("Parley: using PostgreSQL from DATABASE_URL; migrations applied.");
    // "stopped." or "stopped at its bound (3 s): …", as the delivery in hand allowed.
    expect(messages.filter((msg) => msg.startsWith("Parley: stopped"))).toHaveLength(1);
  });

  it("gives a failing request's lines one request id, the one its answer returned, with the error and its stack", () => {
    expect(requestIds.failed).toMatch(/^[0-9a-f-]{36}$/);
    const lines = jsonLines().filter((line) => line.requestId === requestIds.failed);
    expect(lines.map((line) => line.level).sort()).toEqual(["error", "info"]);
    expect(lines.find((line) => line.level === "error")).toMatchObject({ err: { message: expect.stringContaining("api_asks"), stack: expect.stringContaining("api_asks") } });
    expect(lines.find((line) => line.level === "info")).toMatchObject({ route: "/api/v1/asks", status: 500 });
    // Its parameters are there, less the secrets among them.
    expect(lines.find((line) => line.level === "error")!.err!.message).toMatch(/params: .*Roll back billing 2\.4\?.*reply_token.*\*\*\*/s);
  });

  it("logs each API request in a line of its own request id, keeping a sane X-Request-Id the caller sent", () => {
    expect(requestIds.read).toBe("agent-trace-7f3a9c");
    for (const [what, id] of Object.entries(requestIds)) {
      const lines = jsonLines().filter((line) => line.requestId === id);
      expect(lines, what).toHaveLength(what === "failed" ? 2 : 1);
    }
    expect(new Set(Object.values(requestIds)).size).toBe(Object.keys(requestIds).length);
  });

  it("says which run and question a request was about", () => {
    const about = (id: string) => jsonLines().find((line) => line.requestId === id);
    expect(about(requestIds.ask!)).toMatchObject({ status: 201, taskId: ask.id, questionId: ask.question_id });
    expect(about(requestIds.read!)).toMatchObject({ status: 200, taskId: ask.id, questionId: ask.question_id });
    expect(about(requestIds.declined!)).toMatchObject({ status: 200, questionId: ask.question_id });
    expect(jsonLines().find((line) => line.msg.includes("through webhook failed"))).toMatchObject({ level: "warn", questionId: ask.question_id });
  });

  it("holds none of the secrets it was given or sent, anywhere in what it printed", () => {
    const output = server.output();
    expect(output.length).toBeGreaterThan(0);
    for (const [what, secret] of Object.entries(secrets)) expect(output.includes(secret), `${what} is in the server's output`).toBe(false);
  });
});
