import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { expect, people, signedInPage, test } from "./fixtures";
import { makeAgentKey } from "./support/agent-key";

/** What an agent sends: a schema with a choice, a code the server alone can judge, and a yes/no with a default. */
const RESPONSE_SCHEMA = {
  type: "object",
  properties: {
    decision: { description: "Ship the 2.4 release?", oneOf: [{ const: "ship", title: "Ship it" }, { const: "hold", title: "Hold it" }] },
    currency: { type: "string", description: "Which currency do the new prices use?", pattern: "^[A-Z]{3}$", errorMessage: "Use a three-letter code, like EUR." },
    announce: { type: "boolean", description: "Announce it on the status page?", default: false },
  },
  required: ["decision", "currency"],
};

/** A receiver for the ask's callback: keeps every request's raw body and headers. */
async function callbackReceiver() {
  const received: { body: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/parley-hook`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test("an agent asks over HTTP, the person answers in the browser after one refusal, and the agent gets the typed answer by long-poll and by a signed webhook", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const key = await makeAgentKey(browser, `Release bot ${Date.now()}`);
  const receiver = await callbackReceiver();
  try {
    const created = await request.post("/api/v1/asks", {
      headers: { authorization: `Bearer ${key.secret}`, "idempotency-key": `ship-2.4-${Date.now()}` },
      data: { to: people.assignee.email, title: "Ship billing 2.4 today?", body: "The canary has been clean for an hour.", context: { service: "billing" }, response_schema: RESPONSE_SCHEMA, due_in_seconds: 3600, callback_url: receiver.url },
    });
    expect(created.status()).toBe(201);
    const ask = (await created.json()) as { id: string; status: string; url: string };
    expect(ask.status).toBe("open");

    // The agent waits for the answer the way a script would: a long-poll, held open while the person thinks.
    const waiting = request.get(`/api/v1/asks/${ask.id}?wait=60`, { headers: { authorization: `Bearer ${key.secret}` }, timeout: 70_000 });

    const page = await signedInPage(browser, people.assignee);
    await page.goto(new URL(ask.url).pathname);
    await expect(page.getByText(`${key.name} asks over the API`)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Ship billing 2.4 today?" })).toBeVisible();
    await expect(page.getByText("The canary has been clean for an hour.")).toBeVisible();
    await page.getByLabel("Ship it").check();
    await page.getByLabel("Which currency do the new prices use?").fill("euros");
    await page.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByText("Use a three-letter code, like EUR.")).toBeVisible();
    await page.getByLabel("Which currency do the new prices use?").fill("EUR");
    await page.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByText(/You answered this|answered/i).first()).toBeVisible();

    const answered = await waiting;
    expect(answered.status()).toBe(200);
    expect(await answered.json()).toMatchObject({
      id: ask.id,
      status: "answered",
      answer: { decision: "ship", currency: "EUR", announce: false },
      answered_by: { email: people.assignee.email },
      attempts: { allowed: 3, refused: 1 },
    });

    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const [delivery] = receiver.received;
    const headers = Object.fromEntries(Object.entries(delivery!.headers).map(([name, value]) => [name, String(value)]));
    // A verifier nobody here wrote: it throws on a bad signature.
    const event = new Webhook(key.webhookSecret).verify(delivery!.body, headers) as { type: string; data: Record<string, unknown> };
    expect(event).toMatchObject({ type: "ask.answered", data: { id: ask.id, status: "answered", answer: { decision: "ship", currency: "EUR", announce: false } } });
    await page.context().close();
  } finally {
    await receiver.close();
  }
});
