import type { APIRequestContext, APIResponse } from "@playwright/test";
import { z } from "zod";
import { expect, people, signedInPage, test } from "./fixtures";
import { makeAgentKey } from "./support/agent-key";
import { makePersonalToken } from "./support/personal-token";

type Json = Record<string, unknown>;

/** A questionnaire an agent sends with its ask, for the person's operations. */
const CONTRACT_SCHEMA = {
  type: "object",
  properties: {
    decision: { description: "Ship it?", oneOf: [{ const: "ship", title: "Ship" }, { const: "hold", title: "Hold" }] },
    window_hours: { type: "integer", description: "How many hours may it take?", minimum: 1, maximum: 12, errorMessage: "Between 1 and 12 hours, please." },
  },
  required: ["decision", "window_hours"],
};

/** A component schema with every `$ref` into the document's components written out in place. */
function inline(schema: unknown, components: Json): unknown {
  if (Array.isArray(schema)) return schema.map((each) => inline(each, components));
  if (!schema || typeof schema !== "object") return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref) return inline(components[ref.replace("#/components/schemas/", "")], components);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, components)]));
}

test("every operation the OpenAPI document lists answers with the statuses and shapes it documents, and nothing else", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const documentResponse = await request.get("/api/v1/openapi.json");
  expect(documentResponse.status()).toBe(200);
  type DocumentedResponse = { content?: Record<string, { schema: unknown }>; headers?: Record<string, { $ref?: string; required?: boolean }> };
  const document = (await documentResponse.json()) as {
    openapi: string;
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, DocumentedResponse> }>>;
    components: { schemas: Json; headers: Record<string, { required?: boolean }> };
  };
  expect(document.openapi).toBe("3.1.0");

  const operations = new Map<string, { path: string; method: string; responses: Record<string, DocumentedResponse> }>();
  for (const [path, methods] of Object.entries(document.paths)) for (const [method, operation] of Object.entries(methods)) operations.set(operation.operationId, { path, method, responses: operation.responses });

  const seen = new Set<string>();
  /** Checks a response against the document: its status is one the operation lists, its body has that status's shape, and it carries the headers that status requires. */
  async function conforms(operationId: string, response: APIResponse, expectedStatus: number) {
    const operation = operations.get(operationId);
    expect(operation, `${operationId} is documented`).toBeDefined();
    expect(response.status(), `${operationId} answered ${response.status()}: ${await response.text()}`).toBe(expectedStatus);
    const documented = operation!.responses[String(expectedStatus)];
    expect(documented, `${operationId} documents ${expectedStatus}`).toBeDefined();
    const schema = documented!.content?.["application/json"]?.schema;
    if (schema) {
      const parsed = z.fromJSONSchema(inline(schema, document.components.schemas) as Json).safeParse(await response.json());
      expect(parsed.success, `${operationId} ${expectedStatus} matches its schema: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`).toBe(true);
    }
    for (const [name, header] of Object.entries(documented!.headers ?? {})) {
      const required = header.$ref ? document.components.headers[header.$ref.replace("#/components/headers/", "")]?.required : header.required;
      if (required) expect(response.headers()[name.toLowerCase()], `${operationId} ${expectedStatus} carries ${name}`).toBeDefined();
    }
    seen.add(`${operationId} ${expectedStatus}`);
  }

  const key = await makeAgentKey(browser, `Contract check ${Date.now()}`);
  const auth = { authorization: `Bearer ${key.secret}` };
  const api = (path: string) => `/api/v1${path}`;
  const ask = (context: APIRequestContext, data: unknown, headers: Record<string, string> = {}) => context.post(api("/asks"), { headers: { ...auth, ...headers }, data: data as Json });
  const idempotencyKey = `contract-${Date.now()}`;

  // createAsk
  const created = await ask(request, { to: people.assignee.email, title: "Contract check: is it open?" }, { "idempotency-key": idempotencyKey });
  await conforms("createAsk", created, 201);
  const askId = ((await created.json()) as { id: string }).id;
  await conforms("createAsk", await ask(request, { to: people.assignee.email, title: "Contract check: is it open?" }, { "idempotency-key": idempotencyKey }), 200);
  await conforms("createAsk", await ask(request, { to: people.assignee.email }), 400);
  await conforms("createAsk", await ask(request, { to: people.assignee.email, title: "A different request" }, { "idempotency-key": idempotencyKey }), 409);
  await conforms("createAsk", await request.post(api("/asks"), { headers: { ...auth, "content-type": "application/json" }, data: JSON.stringify({ to: "x@y.z", title: "x".repeat(300 * 1024) }) }), 413);
  await conforms("createAsk", await request.post(api("/asks"), { headers: { ...auth, "content-type": "text/plain" }, data: "to=sam" }), 415);
  await conforms("createAsk", await ask(request, { to: "nobody@parley.test", title: "Who?" }), 422);
  await conforms("createAsk", await request.post(api("/asks"), { data: { to: people.assignee.email, title: "No key" } }), 401);

  // listAsks, getAsk
  await conforms("listAsks", await request.get(api("/asks?limit=2"), { headers: auth }), 200);
  await conforms("listAsks", await request.get(api("/asks?status=maybe"), { headers: auth }), 400);
  await conforms("listAsks", await request.get(api("/asks"), { headers: { authorization: "Bearer pk_revokedOrNever" } }), 401);
  await conforms("getAsk", await request.get(api(`/asks/${askId}?wait=0`), { headers: auth }), 200);
  await conforms("getAsk", await request.get(api(`/asks/${askId}?wait=99`), { headers: auth }), 400);
  await conforms("getAsk", await request.get(api("/asks/00000000-0000-4000-8000-000000000000"), { headers: auth }), 404);
  await conforms("getAsk", await request.get(api(`/asks/${askId}`)), 401);

  // cancelAsk: an open ask is withdrawn; an answered one is a conflict.
  await conforms("cancelAsk", await request.post(api(`/asks/${askId}/cancel`), { headers: auth }), 200);
  await conforms("cancelAsk", await request.post(api("/asks/00000000-0000-4000-8000-000000000000/cancel"), { headers: auth }), 404);
  await conforms("cancelAsk", await request.post(api(`/asks/${askId}/cancel`)), 401);
  const toAnswer = (await (await ask(request, { to: people.assignee.email, title: `Contract check: answer me ${Date.now()}` })).json()) as { id: string; url: string };
  const page = await signedInPage(browser, people.assignee);
  await page.goto(new URL(toAnswer.url).pathname);
  await page.getByRole("textbox").first().fill("Answered.");
  await page.getByRole("button", { name: "Send answer" }).click();
  await expect.poll(async () => ((await (await request.get(api(`/asks/${toAnswer.id}`), { headers: auth })).json()) as { status: string }).status).toBe("answered");
  await page.context().close();
  await conforms("cancelAsk", await request.post(api(`/asks/${toAnswer.id}/cancel`), { headers: auth }), 409);

  // Over a key's rate (the test server allows 10 a second, 20 at once), with a key of its own: the rest are told to wait.
  const busy = await makeAgentKey(browser, `Busy bot ${Date.now()}`);
  const busyAuth = { authorization: `Bearer ${busy.secret}` };
  async function overTheRate(send: () => Promise<APIResponse>): Promise<APIResponse> {
    for (let round = 0; round < 5; round++) {
      const limited = (await Promise.all(Array.from({ length: 30 }, send))).find((response) => response.status() === 429);
      if (limited) {
        expect(Number(limited.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
        // Let the key's budget fill up again before the next operation is tried.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        return limited;
      }
    }
    throw new Error("150 requests at once were never limited");
  }
  await conforms("getAsk", await overTheRate(() => request.get(api(`/asks/${askId}`), { headers: busyAuth })), 429);
  await conforms("listAsks", await overTheRate(() => request.get(api("/asks?limit=1"), { headers: busyAuth })), 429);
  await conforms("cancelAsk", await overTheRate(() => request.post(api(`/asks/${askId}/cancel`), { headers: busyAuth })), 429);
  await conforms("createAsk", await overTheRate(() => request.post(api("/asks"), { headers: busyAuth, data: { to: people.assignee.email } })), 429);

  // The person's side, with Sam's own token: who he is, his questions, answering them, closing one with nothing.
  const samAuth = { authorization: `Bearer ${await makePersonalToken(browser, people.assignee, `Contract check ${Date.now()}`)}` };
  const nobodysQuestion = api("/questions/00000000-0000-4000-8000-000000000000");
  const answerTo = (path: string, data: unknown, headers: Record<string, string> = samAuth) => request.post(`${path}/answer`, { headers, data: data as Json });
  const closeWithNothing = (path: string, data: unknown, headers: Record<string, string> = samAuth) => request.post(`${path}/nothing`, { headers, data: data as Json });
  const putToSam = async (title: string) => {
    const made = (await (await ask(request, { to: people.assignee.email, title, response_schema: CONTRACT_SCHEMA })).json()) as { question_id: string };
    return api(`/questions/${made.question_id}`);
  };
  await conforms("getMe", await request.get(api("/me"), { headers: samAuth }), 200);
  // An agent key asks; it is nobody, and answers nothing.
  await conforms("getMe", await request.get(api("/me"), { headers: auth }), 401);
  const samsQuestion = await putToSam(`Contract check: Sam's ${Date.now()}`);
  await conforms("listMyQuestions", await request.get(api("/questions?limit=100"), { headers: samAuth }), 200);
  await conforms("listMyQuestions", await request.get(api("/questions?limit=0"), { headers: samAuth }), 400);
  await conforms("listMyQuestions", await request.get(api("/questions")), 401);
  await conforms("getMyQuestion", await request.get(samsQuestion, { headers: samAuth }), 200);
  await conforms("getMyQuestion", await request.get(nobodysQuestion, { headers: samAuth }), 404);
  await conforms("getMyQuestion", await request.get(samsQuestion), 401);
  await conforms("answerMyQuestion", await answerTo(samsQuestion, { answers: { decision: "ship", window_hours: "40" } }), 422);
  await conforms("answerMyQuestion", await answerTo(samsQuestion, { answers: { decison: "ship" } }), 400);
  await conforms("answerMyQuestion", await answerTo(nobodysQuestion, { answers: { decision: "ship" } }), 404);
  await conforms("answerMyQuestion", await request.post(`${samsQuestion}/answer`, { headers: { ...samAuth, "content-type": "application/json" }, data: JSON.stringify({ answers: { decision: "x".repeat(300 * 1024) } }) }), 413);
  await conforms("answerMyQuestion", await request.post(`${samsQuestion}/answer`, { headers: { ...samAuth, "content-type": "text/plain" }, data: "decision=ship" }), 415);
  await conforms("answerMyQuestion", await answerTo(samsQuestion, { answers: { decision: "ship" } }, {}), 401);
  await conforms("answerMyQuestion", await answerTo(samsQuestion, { answers: { decision: "1", window_hours: "4" } }), 200);
  await conforms("answerMyQuestion", await answerTo(samsQuestion, { answers: { decision: "1", window_hours: "4" } }), 409);
  await conforms("closeMyQuestionWithNothing", await closeWithNothing(samsQuestion, { reason: "non-interactive" }), 409);
  const unattended = await putToSam(`Contract check: nobody there ${Date.now()}`);
  await conforms("closeMyQuestionWithNothing", await closeWithNothing(unattended, { reason: "away" }), 400);
  await conforms("closeMyQuestionWithNothing", await closeWithNothing(nobodysQuestion, { reason: "non-interactive" }), 404);
  await conforms("closeMyQuestionWithNothing", await request.post(`${unattended}/nothing`, { headers: { ...samAuth, "content-type": "application/json" }, data: JSON.stringify({ reason: "x".repeat(300 * 1024) }) }), 413);
  await conforms("closeMyQuestionWithNothing", await request.post(`${unattended}/nothing`, { headers: { ...samAuth, "content-type": "text/plain" }, data: "non-interactive" }), 415);
  await conforms("closeMyQuestionWithNothing", await closeWithNothing(unattended, { reason: "non-interactive" }, {}), 401);
  await conforms("closeMyQuestionWithNothing", await closeWithNothing(unattended, { reason: "non-interactive" }), 200);
  // Over a token's rate, with a token of its own (on nobody's question: nothing is answered or closed).
  const busyToken = { authorization: `Bearer ${await makePersonalToken(browser, people.assignee, `Busy terminal ${Date.now()}`)}` };
  await conforms("getMe", await overTheRate(() => request.get(api("/me"), { headers: busyToken })), 429);
  await conforms("listMyQuestions", await overTheRate(() => request.get(api("/questions?limit=1"), { headers: busyToken })), 429);
  await conforms("getMyQuestion", await overTheRate(() => request.get(nobodysQuestion, { headers: busyToken })), 429);
  await conforms("answerMyQuestion", await overTheRate(() => answerTo(nobodysQuestion, { answers: { decision: "ship" } }, busyToken)), 429);
  await conforms("closeMyQuestionWithNothing", await overTheRate(() => closeWithNothing(nobodysQuestion, { reason: "non-interactive" }, busyToken)), 429);

  await conforms("getOpenApiDocument", documentResponse, 200);

  // 503 needs a database that cannot be reached, which this server always has: the integration test
  // a-database-that-cannot-be-reached-is-answered-503-with-retry-after.test.ts provokes it.
  const documented = [...operations].flatMap(([operationId, operation]) => Object.keys(operation.responses).filter((status) => status !== "503").map((status) => `${operationId} ${status}`));
  expect(documented.filter((entry) => !seen.has(entry)), "every documented response was seen").toEqual([]);
});
