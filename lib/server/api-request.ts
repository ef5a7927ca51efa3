import { authenticateApiKey } from "@/lib/api-keys";
import { getDb } from "@/lib/database";
import { isDatabaseUnreachable } from "@/lib/database-unreachable";
import type { ApiKey, ApiKeyKind } from "@/db/schema";
import { AppError, isAppError } from "@/lib/errors";
import { log, REQUEST_ID_HEADER, requestIdFrom, withLogContext } from "@/lib/log";
import { httpStatusOf } from "@/lib/server/http-status";
import { getMetrics } from "@/lib/server/metrics";
import { inFlight } from "@/lib/server/shutdown";

/** The largest request body the API reads. */
export const API_BODY_LIMIT_BYTES = 256 * 1024;

/** What the API answers every refusal with: one shape, a stable code, where the problem is, and what more the caller can act on. */
export interface ApiErrorBody {
  error: { code: string; message: string; path?: string; [detail: string]: unknown };
}

const NO_STORE = { "cache-control": "no-store" };

/** A JSON response the API sends (never cached: it is one caller's data). */
export function apiJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** The API's error response for an {@link AppError}. */
export function apiError(error: AppError, headers: Record<string, string> = {}): Response {
  const body: ApiErrorBody = {
    // The details (a refused answer's fields, who answered first) are made by Parley's own code, never copied from the caller's input.
    error: { code: error.code, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}), ...error.details },
  };
  // A 401 says what it wants (RFC 7235): a bearer key. Without it some clients take it for an OAuth server's.
  const status = httpStatusOf(error.code);
  const challenge: Record<string, string> = status === 401 ? { "www-authenticate": 'Bearer realm="Parley"' } : {};
  return apiJson(body, status, { ...challenge, ...headers });
}

/** Requests per second a key may make, from `PARLEY_API_RATE_LIMIT` (0 turns the limit off); default 100. */
function rateLimit(): number {
  const configured = Number(process.env.PARLEY_API_RATE_LIMIT?.trim() || "100");
  return Number.isFinite(configured) && configured >= 0 ? configured : 100;
}

interface Bucket {
  tokens: number;
  at: number;
}

const BUCKETS_KEY = Symbol.for("parley.api-rate-buckets");
type GlobalWithBuckets = typeof globalThis & { [BUCKETS_KEY]?: Map<string, Bucket> };

/**
 * Spends one request of the key's budget: a token bucket per key and process, refilled at the rate
 * and holding two seconds' worth (so a short burst passes). Returns the seconds to wait when spent.
 */
function spend(keyId: string, now: number): number | undefined {
  const rate = rateLimit();
  if (rate === 0) return undefined;
  const store = globalThis as GlobalWithBuckets;
  const buckets = (store[BUCKETS_KEY] ??= new Map());
  const capacity = rate * 2;
  const bucket = buckets.get(keyId) ?? { tokens: capacity, at: now };
  bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * rate);
  bucket.at = now;
  buckets.set(keyId, bucket);
  if (bucket.tokens < 1) return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
  bucket.tokens -= 1;
  return undefined;
}

/** The API key a request presents as `Authorization: Bearer <secret>`, of the kind the route takes; 401 otherwise, 429 over its rate. */
export async function authenticateApiRequest(request: Request, kind: ApiKeyKind): Promise<ApiKey> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError("unauthorized", "Send an API key: Authorization: Bearer <key>. Admins make keys on the API keys page.");
  const key = await authenticateApiKey(await getDb(), match[1]!);
  if (!key || key.kind !== kind) {
    throw new AppError("unauthorized", kind === "agent" ? "This API key is unknown or was revoked." : "This personal token is unknown or was revoked.");
  }
  const wait = spend(key.id, performance.now());
  if (wait !== undefined) throw Object.assign(new AppError("rate_limited", `Too many requests for this key: try again in ${wait} s.`), { retryAfter: wait });
  return key;
}

/** The JSON body of a request: 415 when it is not JSON, 413 over the limit, 400 when it does not parse (or holds what cannot be stored, or nests too deep). */
export async function readJsonBody(request: Request, limit = API_BODY_LIMIT_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(type.trim())) {
    throw new AppError("unsupported_media_type", "Send the body as JSON, with Content-Type: application/json.");
  }
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) throw new AppError("payload_too_large", `The body is over ${limit / 1024} KB.`);
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > limit) {
        await reader.cancel().catch(() => {});
        throw new AppError("payload_too_large", `The body is over ${limit / 1024} KB.`);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.includes("\u0000")) throw new AppError("invalid_input", "The body contains a NUL character.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new AppError("invalid_input", text.trim() === "" ? "The body is empty: send a JSON object." : "The body is not valid JSON.");
  }
  // An escaped NUL or lone surrogate parses into a string PostgreSQL cannot store, and a body nested thousands
  // deep parses but overflows the stack of whatever recurses over it: all are refused here, not failed on later.
  const refusal = refusalOf(parsed);
  if (refusal) throw new AppError("invalid_input", refusal);
  return parsed;
}

/** How deep a body may nest: deeper than any request of the API, shallow enough for code that recurses over it (JSON.stringify, the driver). */
export const API_BODY_NESTING_LIMIT = 64;

/** Half of a UTF-16 surrogate pair without its other half: JSON may escape one (`\ud800`), PostgreSQL's json refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string or key cannot be stored as text or json, if it cannot. */
function unstorable(text: string): string | undefined {
  if (text.includes("\u0000")) return "The body contains a NUL character.";
  if (LONE_SURROGATE.test(text)) return "The body contains text that is not valid Unicode (half of a surrogate pair).";
  return undefined;
}

/**
 * What in a parsed body no handler should meet: a NUL character or half a surrogate pair in a
 * string or key, or nesting deeper than {@link API_BODY_NESTING_LIMIT}. Walked without recursion,
 * since the body may nest deeply.
 */
function refusalOf(root: unknown): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (typeof value === "string") {
      const refusal = unstorable(value);
      if (refusal) return refusal;
    } else if (value !== null && typeof value === "object") {
      if (depth >= API_BODY_NESTING_LIMIT) return `The body nests deeper than ${API_BODY_NESTING_LIMIT} levels.`;
      for (const [key, child] of Object.entries(value)) {
        const refusal = unstorable(key);
        if (refusal) return refusal;
        pending.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** Seconds a caller is asked to wait when the database cannot be reached: about as long as PostgreSQL takes to restart. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Runs an API route: an {@link AppError} becomes its status and the error shape; a database that
 * cannot be reached (a restart, a failover) is `503 unavailable` with `Retry-After`, which clients
 * wait out; anything else is logged and answered 500 — never the caller's input, which the handlers
 * judge first. Each answer is counted in the metrics under `route`, the route as written in `app/`,
 * and logged in one line. The request has an id — the `X-Request-Id` it came with when that is sane,
 * else a new one — which every line logged while it is answered carries and its answer returns.
 */
export async function apiRoute(request: Request, route: string, handle: () => Promise<Response>): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  return withLogContext({ requestId }, async () => {
    const started = performance.now();
    const response = withRequestId(await inFlight(() => answer(route, handle)), requestId);
    const seconds = (performance.now() - started) / 1000;
    getMetrics().observeRequest(route, request.method, response.status, seconds);
    log.info({ method: request.method, route, status: response.status, ms: Math.round(seconds * 1000) }, `${request.method} ${route} ${response.status}`);
    return response;
  });
}

/** `response` with the request's id as `X-Request-Id` (a copy when its headers cannot change). */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(REQUEST_ID_HEADER, requestId);
    return copy;
  }
}

async function answer(route: string, handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    if (isAppError(error)) {
      const retryAfter = (error as { retryAfter?: number }).retryAfter;
      return apiError(error, retryAfter ? { "retry-after": String(retryAfter) } : {});
    }
    if (isDatabaseUnreachable(error)) {
      // One line, not a stack trace each: a restart fails every request in flight at once.
      log.warn({ route }, `Parley API: the database cannot be reached (${describeUnreachable(error)}); answered 503.`);
      return apiError(new AppError("unavailable"), { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) });
    }
    log.error({ err: error, route }, "Parley API: the request failed; answered 500.");
    return apiError(new AppError("internal"));
  }
}

/** The driver's own words for why the database is away, from the innermost error that has a code. */
function describeUnreachable(error: unknown): string {
  let described = "unreachable";
  for (let current = error, depth = 0; typeof current === "object" && current !== null && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string") described = typeof message === "string" && message ? `${code}: ${message}` : code;
  }
  return described;
}
