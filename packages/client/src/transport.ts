import { ParleyApiError, ParleyUnavailableError } from "./errors.js";

/** How the client rides out passing failures. */
export interface RetryOptions {
  /** The first wait after a failure; it doubles (with jitter) up to `maxDelayMs`. Default 250 ms. */
  minDelayMs?: number;
  /** The longest wait between two tries, unless the server's `Retry-After` asks for longer. Default 15 s. */
  maxDelayMs?: number;
  /**
   * How long one request keeps failing before the client gives up with {@link ParleyUnavailableError};
   * any response resets it. Default 10 minutes; 0 tries once.
   */
  giveUpAfterMs?: number;
}

/** The `fetch` the client sends with (the global one's shape, narrowed to what the client passes). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** What every request is sent with: the fetch, the key, the retry policy, the timeout. */
interface Transport {
  fetch: FetchFunction;
  apiKey: string;
  retry: Required<RetryOptions>;
  /** Added to a request's expected duration (its long-poll wait) before it is abandoned and tried again. */
  requestTimeoutMs: number;
}

/** One API request: method, URL, body, headers, and how long the server may legitimately hold it. */
export interface ApiRequest {
  method: "GET" | "POST";
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Seconds the server may hold the request (a long-poll's `wait`). */
  holdSeconds?: number;
  /** Safe to send twice (a POST with an Idempotency-Key, a cancel), so it is retried; a GET always is. */
  idempotent?: boolean;
  signal?: AbortSignal;
}

/** What a request gave: its status and parsed JSON body. */
export interface ApiResponse<T> {
  status: number;
  body: T;
}

/** A failure that may pass: the request is tried again after `delayMs` (the server's, when it said). */
class PassingFailure extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryAfterMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Statuses that say "later": a timeout, too many requests, and the server's own failures. */
function isPassingStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** `Retry-After` in milliseconds: seconds, or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The API's error from a refusal's body, or one made from the status when the body is not the API's. */
function apiErrorOf(status: number, statusText: string, text: string): ParleyApiError {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; path?: unknown } };
    const error = parsed?.error;
    if (error && typeof error.code === "string" && typeof error.message === "string") {
      return new ParleyApiError(status, error.code, error.message, typeof error.path === "string" ? error.path : undefined);
    }
  } catch {
    // Not JSON: a proxy's page, say. Described by its status below.
  }
  const snippet = text.trim().slice(0, 200);
  return new ParleyApiError(status, `http_${status}`, `HTTP ${status}${statusText ? ` ${statusText}` : ""}${snippet ? `: ${snippet}` : ""}`);
}

/** One try: the response's JSON, a {@link ParleyApiError} for a lasting refusal, a {@link PassingFailure} for one that may pass. */
async function attempt<T>(transport: Transport, request: ApiRequest): Promise<ApiResponse<T>> {
  const timeoutMs = (request.holdSeconds ?? 0) * 1000 + transport.requestTimeoutMs;
  // One controller per try, tied to the caller's signal and a timer, both let go when the try ends
  // (AbortSignal.any would keep each try's signal alive as long as the caller's, for a wait of days).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no response within ${Math.round(timeoutMs / 1000)} s`));
  }, timeoutMs);
  const onAbort = () => controller.abort(request.signal!.reason);
  if (request.signal?.aborted) onAbort();
  else request.signal?.addEventListener("abort", onAbort, { once: true });
  const headers: Record<string, string> = { accept: "application/json", authorization: `Bearer ${transport.apiKey}`, ...request.headers };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  let status: number | undefined;
  try {
    const response = await transport.fetch(request.url, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      signal: controller.signal,
    });
    status = response.status;
    // Read whole before judging: a server killed mid-body fails here, and that passes like a refused connection.
    const text = await response.text();
    if (response.ok) {
      try {
        return { status: response.status, body: JSON.parse(text) as T };
      } catch (cause) {
        throw new PassingFailure(`HTTP ${response.status} with a body that is not JSON`, response.status, undefined, { cause });
      }
    }
    if (isPassingStatus(response.status)) {
      const error = apiErrorOf(response.status, response.statusText, text);
      throw new PassingFailure(error.message, response.status, retryAfterMs(response.headers.get("retry-after")), { cause: error });
    }
    throw apiErrorOf(response.status, response.statusText, text);
  } catch (error) {
    if (error instanceof ParleyApiError || error instanceof PassingFailure) throw error;
    // The caller stopped: not a failure to ride out.
    if (request.signal?.aborted) throw request.signal.reason;
    const why = timedOut ? `no response within ${Math.round(timeoutMs / 1000)} s` : describeNetworkError(error);
    throw new PassingFailure(why, status, undefined, { cause: error });
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
  }
}

/** "fetch failed (ECONNREFUSED)" and the like: the error and its cause's code, where there is one. */
function describeNetworkError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : undefined;
  return detail ? `${message} (${detail})` : message;
}

/**
 * Sends a request, riding out what may pass — network errors, a refused connection while the server
 * restarts, a request that hangs, 5xx, 429 (after its `Retry-After`) — with exponential backoff and
 * jitter, until it succeeds, is refused for good ({@link ParleyApiError}), the caller aborts, or it has
 * failed for `giveUpAfterMs` ({@link ParleyUnavailableError}). A POST is retried only when it is
 * `idempotent` (safe to send twice).
 */
export async function send<T>(transport: Transport, request: ApiRequest): Promise<ApiResponse<T>> {
  const { minDelayMs, maxDelayMs, giveUpAfterMs } = transport.retry;
  const retriable = request.method === "GET" || request.idempotent === true;
  let firstFailureAt: number | undefined;
  for (let failures = 0; ; failures += 1) {
    try {
      return await attempt<T>(transport, request);
    } catch (error) {
      if (!(error instanceof PassingFailure)) throw error;
      const now = Date.now();
      firstFailureAt ??= now;
      const elapsed = now - firstFailureAt;
      const backoff = Math.min(maxDelayMs, minDelayMs * 2 ** Math.min(failures, 30));
      // Full jitter, never under the first delay: many clients a restart cut off do not come back at once.
      const delay = error.retryAfterMs ?? minDelayMs + Math.random() * Math.max(0, backoff - minDelayMs);
      if (!retriable || elapsed + delay > giveUpAfterMs) {
        throw new ParleyUnavailableError(
          `Parley did not answer ${request.method} ${new URL(request.url).pathname}${failures > 0 ? ` after ${failures + 1} tries over ${Math.round(elapsed / 1000)} s` : ""}: ${error.message}`,
          { ...(error.status !== undefined ? { status: error.status } : {}), cause: error.cause ?? error },
        );
      }
      await sleep(delay, request.signal);
    }
  }
}

export type { Transport };
