import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { APICallError, generateText, RetryError } from "ai";
import { afterEach, describe, expect, it } from "vitest";

import { resolveModel } from "@/lib/models/resolve-model";

import { type FakeProviderServer, type FakeReply, startFakeProviderServer } from "./fake-provider-server";

// The runtime records a failed turn with its cause and leaves the task retryable; these tests pin
// down what "failed" looks like when it comes from the provider, so that it is never a silent hang.

const SERVER_ERROR: FakeReply = { status: 500, body: { error: { message: "upstream exploded", type: "server_error" } } };
const UNAUTHORIZED: FakeReply = { status: 401, body: { error: { message: "bad key", type: "invalid_request_error" } } };

function modelAt(baseUrl: string) {
  return resolveModel(
    { PARLEY_MODEL_BASE_URL: baseUrl, PARLEY_MODEL: "test-model" },
    {
      scripted: () => {
        throw new Error("the scripted model must not be chosen when a base URL is set");
      },
    },
  ).model;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the model call to fail, but it succeeded");
}

describe("a failing provider", () => {
  let server: FakeProviderServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("turns an HTTP 500 into an APICallError that says it may be retried", async () => {
    server = await startFakeProviderServer(() => SERVER_ERROR);

    const error = await rejection(generateText({ model: modelAt(server.baseUrl), prompt: "hello", maxRetries: 0 }));

    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true });
    expect(server.requests).toHaveLength(1);
  });

  it("wraps the last HTTP 500 in a RetryError once the SDK's own retries are spent", async () => {
    server = await startFakeProviderServer(() => SERVER_ERROR);

    const error = await rejection(generateText({ model: modelAt(server.baseUrl), prompt: "hello", maxRetries: 1 }));

    expect(RetryError.isInstance(error)).toBe(true);
    const { reason, lastError } = error as RetryError;
    expect(reason).toBe("maxRetriesExceeded");
    expect(APICallError.isInstance(lastError)).toBe(true);
    expect(lastError).toMatchObject({ statusCode: 500 });
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry an HTTP 401 and says it may not be retried", async () => {
    server = await startFakeProviderServer(() => UNAUTHORIZED);

    const error = await rejection(generateText({ model: modelAt(server.baseUrl), prompt: "hello" }));

    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 401, isRetryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it("gives up on a provider that never answers once the timeout passes", async () => {
    server = await startFakeProviderServer(() => "hang");
    const started = performance.now();

    const error = await rejection(generateText({ model: modelAt(server.baseUrl), prompt: "hello", timeout: 300 }));

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });

  it("gives up on a provider that never answers when the caller aborts", async () => {
    server = await startFakeProviderServer(() => "hang");
    const controller = new AbortController();
    const call = generateText({ model: modelAt(server.baseUrl), prompt: "hello", abortSignal: controller.signal });
    await waitFor(() => server?.requests.length === 1);

    controller.abort();
    const error = await rejection(call);

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("AbortError");
  });

  it("turns an unreachable provider into an APICallError that says it may be retried", async () => {
    const closedPort = await freePort();

    const error = await rejection(
      generateText({ model: modelAt(`http://127.0.0.1:${closedPort}/v1`), prompt: "hello", maxRetries: 0 }),
    );

    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: true });
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error("timed out waiting for the request to arrive");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A loopback port that was free a moment ago and has nothing listening on it now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
