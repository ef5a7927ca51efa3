import { afterEach, describe, expect, it } from "vitest";
import { createParleyClient, ParleyApiError, ParleyUnavailableError } from "@parleyhq/client";
import { apiError, ASK_ID, closedPort, type FakeParley, json, startFakeParley } from "./fake-parley";

// What asking again will not heal is thrown at once, as the API said it — status, code, message and
// the path of the field — and sent only once. What may pass but does not pass in time is given up.

const FAST = { minDelayMs: 10, maxDelayMs: 50, giveUpAfterMs: 20_000 };

let fake: FakeParley | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The error a promise rejects with. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("a lasting refusal", () => {
  it("422 throws ParleyApiError with the status, code, message and path, after one request", async () => {
    fake = await startFakeParley((request, response) =>
      apiError(response, 422, "unknown_person", "There is nobody in Parley with the email nobody@parley.test.", { path: "to[1]" }),
    );
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", retry: FAST });

    const error = await rejectionOf(parley.ask({ to: ["sam@parley.test", "nobody@parley.test"], title: "Deploy?" }));

    expect(error).toBeInstanceOf(ParleyApiError);
    expect(error).toMatchObject({
      name: "ParleyApiError",
      status: 422,
      code: "unknown_person",
      message: "There is nobody in Parley with the email nobody@parley.test.",
      path: "to[1]",
    });
    expect(fake.received).toHaveLength(1);
  });

  it.each([
    [400, "invalid_input", "title is required.", "title"],
    [401, "unauthorized", "This API key is unknown or was revoked.", undefined],
    [404, "not_found", "There is no such ask (or it was made with another key).", undefined],
    [409, "idempotency_conflict", "The Idempotency-Key “k” was already used by this key for a different request.", "Idempotency-Key"],
  ])("%i throws ParleyApiError %s at once", async (status, code, message, path) => {
    fake = await startFakeParley((request, response) => apiError(response, status, code, message, path === undefined ? {} : { path }));
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", retry: FAST });
    const error = await rejectionOf(parley.getAsk(ASK_ID, { wait: 5 }));
    expect(error).toMatchObject({ status, code, message, path });
    expect(fake.received).toHaveLength(1);
  });

  it("a refusal that is not the API's shape (a proxy's page) keeps its status, with code http_<status>", async () => {
    fake = await startFakeParley((request, response) => {
      response.writeHead(404, { "content-type": "text/html" });
      response.end("<h1>Not Found</h1>");
    });
    const parley = createParleyClient({ baseUrl: `${fake.url}/api/v1/`, apiKey: "pk_test", retry: FAST });
    const error = await rejectionOf(parley.cancelAsk(ASK_ID));
    expect(error).toMatchObject({ status: 404, code: "http_404", path: undefined });
    expect((error as Error).message).toContain("Not Found");
    // A baseUrl given with its /api/v1 is not doubled.
    expect(fake.received[0]!.url).toBe(`/api/v1/asks/${ASK_ID}/cancel`);
  });
});

describe("a failure that does not pass in time", () => {
  it("a server that stays down is given up after giveUpAfterMs with ParleyUnavailableError", async () => {
    const port = await closedPort();
    const parley = createParleyClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "pk_test", retry: { minDelayMs: 20, maxDelayMs: 100, giveUpAfterMs: 600 } });
    const started = Date.now();
    const error = await rejectionOf(parley.listAsks());
    expect(error).toBeInstanceOf(ParleyUnavailableError);
    expect((error as ParleyUnavailableError).status).toBeUndefined();
    expect((error as Error).message).toMatch(/Parley did not answer GET \/api\/v1\/asks after \d+ tries/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("503s past giveUpAfterMs give up too, with the last status", async () => {
    fake = await startFakeParley((request, response) => apiError(response, 503, "model_unavailable", "Try later."));
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", retry: { minDelayMs: 20, maxDelayMs: 100, giveUpAfterMs: 400 } });
    const error = await rejectionOf(parley.getAsk(ASK_ID));
    expect(error).toMatchObject({ name: "ParleyUnavailableError", status: 503 });
    expect(fake.received.length).toBeGreaterThan(1);
  });
});

describe("aborting", () => {
  it("stops the wait with the signal's reason and sends nothing more", async () => {
    fake = await startFakeParley((request, response) => {
      if (request.method === "POST") return json(response, 201, { id: ASK_ID, status: "open" });
      // Holds the long-poll: the abort must end it.
    });
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", pollSeconds: 30, retry: FAST });
    const controller = new AbortController();
    const asking = parley.ask({ to: "sam@parley.test", title: "Deploy?", signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort(new Error("the caller stopped"));
    await expect(asking).rejects.toThrow("the caller stopped");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.received.map((request) => request.method)).toEqual(["POST", "GET"]);
  });
});
