import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createParleyClient } from "@parleyhq/client";
import { answeredJson, apiError, ASK_ID, askJson, closedPort, type FakeParley, json, startFakeParley } from "./fake-parley";

// The client rides out what passes — 5xx, 429, a refused connection while the server restarts, a
// connection dropped mid-request, a request that hangs — and asks the same ask, with the same
// Idempotency-Key, until an answer comes. A tiny server of the test's own plays Parley.

const Deploy = z.object({ go: z.boolean().describe("Deploy now?"), hours: z.int().min(1).describe("Within how many hours?") });
const FAST = { minDelayMs: 10, maxDelayMs: 50, giveUpAfterMs: 20_000 };

let fake: FakeParley | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("the client rides out passing failures", () => {
  it("a 503 on the create and a 429 on the wait are retried (after Retry-After), with the same Idempotency-Key", async () => {
    let posts = 0;
    let gets = 0;
    fake = await startFakeParley((request, response) => {
      if (request.method === "POST") {
        posts += 1;
        return posts === 1 ? apiError(response, 503, "internal", "Down for a moment.") : json(response, 201, askJson());
      }
      gets += 1;
      if (gets === 1) return apiError(response, 429, "rate_limited", "Too many requests for this key: try again in 1 s.", { headers: { "retry-after": "1" } });
      if (gets === 2) return json(response, 200, askJson());
      return json(response, 200, answeredJson({ go: true, hours: 2 }));
    });
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", pollSeconds: 1, retry: FAST });

    const answer = await parley.ask({ to: "sam@parley.test", title: "Deploy?", schema: Deploy });

    expect(answer).toMatchObject({ ok: true, value: { go: true, hours: 2 } });
    const [firstPost, secondPost, rateLimited, afterRetry] = fake.received;
    expect([firstPost!.method, secondPost!.method]).toEqual(["POST", "POST"]);
    expect(firstPost!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(secondPost!.headers["idempotency-key"]).toBe(firstPost!.headers["idempotency-key"]);
    expect(secondPost!.body).toBe(firstPost!.body);
    expect(rateLimited!.url).toBe(`/api/v1/asks/${ASK_ID}?wait=1`);
    // Retry-After: 1 is honoured, not the 10 ms backoff.
    expect(afterRetry!.at - rateLimited!.at).toBeGreaterThanOrEqual(950);
    for (const request of fake.received) expect(request.headers.authorization).toBe("Bearer pk_test");
  });

  it("a server that refuses connections for a while (a restart) is waited for, and the same ask is picked up", async () => {
    const port = await closedPort();
    const parley = createParleyClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "pk_test", pollSeconds: 1, retry: FAST });
    const asking = parley.ask({ to: "sam@parley.test", title: "Release notes?" });
    await new Promise((resolve) => setTimeout(resolve, 700));
    let gets = 0;
    fake = await startFakeParley((request, response) => {
      if (request.method === "POST") return json(response, 201, askJson());
      gets += 1;
      return json(response, 200, gets < 2 ? askJson() : answeredJson("Faster invoices."));
    }, port);

    await expect(asking).resolves.toMatchObject({ ok: true, value: "Faster invoices." });
    expect(fake.received.map((request) => request.method)).toEqual(["POST", "GET", "GET"]);
  });

  it("a connection dropped in the middle of a long-poll (the server killed) is polled again once it is back", async () => {
    let gets = 0;
    fake = await startFakeParley(async (request, response) => {
      if (request.method === "POST") return json(response, 201, askJson());
      gets += 1;
      if (gets === 1) {
        // Headers sent, then the process dies: the body never completes.
        response.writeHead(200, { "content-type": "application/json", "content-length": "500" });
        response.write('{"id":');
        setTimeout(() => response.socket?.destroy(), 50);
        return;
      }
      if (gets === 2) {
        // Down for a moment: refused until it comes back.
        await fake!.close();
        setTimeout(() => void fake!.reopen(), 300);
        return;
      }
      json(response, 200, answeredJson("yes"));
    });
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", pollSeconds: 1, retry: FAST });

    await expect(parley.ask({ to: "sam@parley.test", title: "Ship it?" })).resolves.toMatchObject({ ok: true, value: "yes" });
    expect(gets).toBe(3);
  });

  it("a 500, 502 and 504 are retried like a 503", async () => {
    const statuses = [500, 502, 504];
    fake = await startFakeParley((request, response) => {
      const status = statuses.shift();
      if (status) return apiError(response, status, "internal", "Something went wrong on our side.");
      json(response, 200, answeredJson("fine"));
    });
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", retry: FAST });
    await expect(parley.getAsk(ASK_ID)).resolves.toMatchObject({ status: "answered", answer: "fine" });
    expect(fake.received).toHaveLength(4);
  });

  it("a request that hangs is abandoned after its wait plus the request timeout, and sent again", async () => {
    fake = await startFakeParley((request, response) => {
      // The first is never answered.
      if (fake!.received.length > 1) json(response, 200, answeredJson("late but here"));
    });
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", pollSeconds: 1, requestTimeoutMs: 300, retry: FAST });
    await expect(parley.waitForAnswer(ASK_ID)).resolves.toMatchObject({ ok: true, value: "late but here" });
    const [hung, again] = fake.received;
    expect(again!.url).toBe(hung!.url);
    // wait=1 may legitimately hold a second; 300 ms on top of that, it is given up.
    expect(again!.at - hung!.at).toBeGreaterThanOrEqual(1_250);
    expect(again!.at - hung!.at).toBeLessThan(3_000);
  });
});
