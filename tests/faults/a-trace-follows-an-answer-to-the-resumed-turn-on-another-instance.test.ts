import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_USERS } from "@/lib/demo-people";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { callAction, HttpClient, serverActionIds, startedTaskId } from "./support/http-client";
import { adminPostgresUrl } from "./support/prerequisites";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";

const WEB_PORT = 3163;
const WORKER_PORT = 3165;

/** One span as an OTLP/HTTP JSON export carries it, with the instance that sent it. */
interface ReceivedSpan {
  instance: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

function valueOf(value: OtlpValue): unknown {
  return value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));
}

/** An OTLP/HTTP receiver (`POST /v1/traces`, JSON): every span it was sent. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces" && request.headers["content-type"]?.startsWith("application/json")) {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: (Omit<ReceivedSpan, "instance" | "attributes"> & { attributes?: OtlpAttribute[] })[] }[] }[];
        };
        for (const resource of body.resourceSpans ?? []) {
          const instance = String(attributesOf(resource.resource?.attributes)["service.instance.id"]);
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) spans.push({ instance, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? "", name: span.name, attributes: attributesOf(span.attributes) });
          }
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("tracing across instances (OpenTelemetry, to an OTLP receiver)", () => {
  let database: FaultDatabase | undefined;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>> | undefined;
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.kill9();
    await receiver?.close();
    await database?.drop().catch(() => {});
  });

  it("follows a person's answer from the API request through the deposit to the resumed turn and its model call on the instance that ran the job", async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "tracing");
    receiver = await startOtlpReceiver();
    const authSecret = randomBytes(33).toString("base64");
    const tracing = (instance: string) => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver!.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${instance}`,
    });
    // The web instance takes requests and runs no job: every run moves on the worker instance.
    const [web, worker] = await Promise.all([
      startServer({ port: WEB_PORT, databaseUrl: database.url, authSecret, env: { ...tracing("web"), PARLEY_WORKER: "off" } }),
      startServer({ port: WORKER_PORT, databaseUrl: database.url, authSecret, env: tracing("worker") }),
    ]);
    servers.push(web, worker);
    expect(JSON.parse((await (await fetch(`${web.baseUrl}/api/ready`)).text())).checks.worker).toBe("off");

    // Omar starts a review whose claim says too little: the Auditor (the scripted model) asks Sam about it.
    const operator = new HttpClient(web.baseUrl);
    await operator.signIn("omar@parley.test", DEMO_USERS.find((person) => person.email === "omar@parley.test")!.password);
    const started = await callAction(operator, {
      actionId: serverActionIds().get("app/(app)/runs/actions.ts#startRunAction")!,
      path: "/runs",
      args: [{ json: null }, { form: { workflow: "ReviewClaim", startToken: randomUUID(), title: "Dinner in Porto", amount: "412.80", currency: "EUR", merchant: "Cantina Porto", incurredOn: "2026-11-20", description: "Dinner.", assigneeId: database.people["sam@parley.test"]! } }],
    });
    const taskId = startedTaskId(started);
    expect(taskId).toBeDefined();
    const sam = new HttpClient(web.baseUrl);
    await sam.signIn("sam@parley.test", DEMO_USERS.find((person) => person.email === "sam@parley.test")!.password);
    const made = await callAction(sam, { actionId: serverActionIds().get("app/(app)/profile/actions.ts#createPersonalTokenAction")!, args: [{ json: null }, { form: { name: "Tracing laptop" } }] });
    const token = (made.result as { data?: { secret?: string } }).data!.secret!;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const question = await until("the Auditor asks Sam", async () => {
      const listed = (await (await fetch(`${web.baseUrl}/api/v1/questions`, { headers })).json()) as { data?: { id: string }[] };
      return listed.data?.[0];
    }, { timeoutMs: 60_000 });
    const asked = (await (await fetch(`${web.baseUrl}/api/v1/questions/${question.id}`, { headers })).json()) as { spec: { fields: { path: string }[] } };

    // The answer comes with a trace of the caller's own: everything it sets going is in that trace.
    const traceId = randomBytes(16).toString("hex");
    const answered = await fetch(`${web.baseUrl}/api/v1/questions/${question.id}/answer`, {
      method: "POST",
      headers: { ...headers, traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` },
      body: JSON.stringify({ answers: { [asked.spec.fields[0]!.path]: "A dinner with the Porto client to close the renewal." } }),
    });
    expect(answered.status).toBe(200);

    const spans = receiver.spans;
    const inTrace = () => spans.filter((span) => span.traceId === traceId);
    const chat = await until("the resumed turn's model call is exported", async () => inTrace().find((span) => span.name.startsWith("chat ")), { timeoutMs: 60_000 });
    const byId = new Map(inTrace().map((span) => [span.spanId, span]));
    const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
      const parent = byId.get(span.parentSpanId);
      return parent ? [parent, ...ancestors(parent)] : [];
    };
    const chain = [chat, ...ancestors(chat)].map((span) => `${span.instance}: ${span.name}`);
    // The model call, in the Auditor's turn, in the job that resumed the run — on the worker — and that job in the deposit of the answer, in the web instance's request.
    expect(chain).toEqual(
      expect.arrayContaining([`worker: ${chat.name}`, "worker: parley.turn Auditor", "worker: parley.job event", "web: parley.deposit"]),
    );
    const deposit = inTrace().find((span) => span.name === "parley.deposit")!;
    expect(deposit.attributes).toMatchObject({ "parley.question_id": question.id, "parley.task_id": taskId, "parley.deposited": true });
    expect(ancestors(deposit).some((span) => span.instance === "web")).toBe(true);
    const job = inTrace().find((span) => span.name === "parley.job event")!;
    expect(job.parentSpanId).toBe(deposit.spanId);
    expect(chat.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "scripted" });
    // Nothing of the conversation is put in a span: not the question, not the answer.
    expect(JSON.stringify(inTrace())).not.toContain("Porto client");
  });
});
