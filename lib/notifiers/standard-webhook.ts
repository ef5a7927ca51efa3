// Standard Webhooks (https://www.standardwebhooks.com): secrets, signing, verifying, and a sender with
// retries. Nothing here knows what an event means — question notices and API callbacks both use it —
// and nothing reads the environment or the database.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { DeliveryAttempt, DeliveryReport } from "./question-notice";
import { hasUrlCredentials, withoutUrlCredentials } from "./url-credentials";

const SECRET_PREFIX = "whsec_";
// The specification's bounds for a symmetric signing secret: at least 192 bits, at most 512.
const MINIMUM_SECRET_BYTES = 24;
const MAXIMUM_SECRET_BYTES = 64;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// The id is signed as `${id}.${timestamp}.${body}`: a full stop in it would let one signed string be
// read as another id and timestamp, so the specification forbids it. Spaces and control characters
// cannot travel in a header.
const MESSAGE_ID = /^[\x21-\x2d\x2f-\x7e]{1,255}$/;
// Full-stop delimited identifiers, as the specification recommends: `question.opened`, `ask.answered`.
const EVENT_TYPE = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;
const UNIX_SECONDS = /^(?:0|[1-9]\d{0,14})$/;

/** How far a `webhook-timestamp` may be from now, by default, when verified: 5 minutes, as the reference libraries use. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The three Standard Webhooks headers, as sent (lower-case names). A type, not an interface, so it passes as any header record. */
export type StandardWebhookHeaders = {
  /** The message's id: the same on every attempt, so the receiver can drop repeats. */
  "webhook-id": string;
  /** When this attempt was signed, in unix seconds. */
  "webhook-timestamp": string;
  /** `v1,<base64 HMAC-SHA256>`, one per signing secret, separated by spaces. */
  "webhook-signature": string;
};

/** An event to send: serialised as `{ "type", "timestamp", "data" }`, the specification's envelope. */
export interface WebhookMessage {
  /** Unique per event and the same on every retry of it (the `webhook-id`); printable ASCII, no spaces or full stops. */
  id: string;
  /** Full-stop delimited, e.g. `question.opened`; tells the receiver the shape of `data`. */
  type: string;
  /** When the event happened — not when it is sent, so it does not change between retries. */
  timestamp: Date;
  /** The event itself; must serialise to JSON. */
  data: object;
}

/** How a delivery is retried. Every field has a default. */
export interface WebhookRetryOptions {
  /** Tries per message, the first included. Default 4. */
  maxAttempts?: number;
  /** Each try is abandoned after this long, a slow or hung receiver included. Default 10 s. */
  attemptTimeoutMs?: number;
  /** The wait before the first retry; it doubles for each later one. Default 1 s. */
  retryDelayMs?: number;
  /** No wait between tries is longer, a receiver's `Retry-After` included. Default 30 s. */
  maxRetryDelayMs?: number;
  /** Unix time in milliseconds, for each attempt's `webhook-timestamp`. */
  now?: () => number;
  /** In [0, 1), for the jitter that keeps many senders from retrying in step. */
  random?: () => number;
}

/** One message to one endpoint. */
export interface WebhookDelivery extends WebhookRetryOptions {
  /** An http(s) URL without a user name or password; redirects from it are never followed. */
  url: string | URL;
  /** The endpoint's `whsec_` secret; several sign with each in turn, so a secret can be rotated without downtime. */
  secret: string | readonly string[];
  message: WebhookMessage;
}

/** What a receiver learns from `verifyStandardWebhook`. */
export type StandardWebhookVerification =
  | { ok: true; id: string; timestamp: Date }
  | {
      ok: false;
      /** `malformed`: a header is missing or unreadable; `stale`: the timestamp is outside the tolerance; `mismatch`: no signature matches. */
      reason: "malformed" | "stale" | "mismatch";
    };

/** Options for `verifyStandardWebhook`. */
export interface VerifyStandardWebhookOptions {
  /** How far `webhook-timestamp` may be from `now`, either way. Default `DEFAULT_WEBHOOK_TOLERANCE_SECONDS`. */
  toleranceSeconds?: number;
  /** Default: the current time. */
  now?: Date;
}

/** Request headers in any of the shapes a receiver has: a Fetch `Headers`, or Node's lower-cased record. */
export type ReceivedHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/**
 * Whether `value` is a usable signing secret: `whsec_` followed by 24 to 64 bytes in canonical,
 * padded base64 — the form every Standard Webhooks library decodes the same way.
 */
export function isWebhookSecret(value: string): boolean {
  return signingKey(value) !== undefined;
}

function signingKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!CANONICAL_BASE64.test(encoded)) return undefined;
  const key = Buffer.from(encoded, "base64");
  // Unused low bits in the last character would let two spellings name one key; only one is accepted.
  if (key.toString("base64") !== encoded) return undefined;
  return key.length >= MINIMUM_SECRET_BYTES && key.length <= MAXIMUM_SECRET_BYTES ? key : undefined;
}

function signingKeys(secret: string | readonly string[]): Buffer[] {
  const secrets = typeof secret === "string" ? [secret] : secret;
  const keys = secrets.map(signingKey);
  // The message names no secret: it may be printed in a log.
  if (keys.length === 0 || keys.some((key) => key === undefined)) throw new TypeError("A webhook signing secret must be whsec_ followed by 24 to 64 bytes in base64.");
  return keys as Buffer[];
}

function unixSeconds(time: Date): number {
  return Math.floor(time.getTime() / 1000);
}

function hmac(key: Buffer, id: string, timestamp: string, body: string | Uint8Array): Buffer {
  return createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
}

/**
 * The Standard Webhooks headers for `body` sent as message `id` at `timestamp`: HMAC-SHA256 over
 * `${id}.${unix seconds}.${body}`, keyed with each secret's decoded bytes, as `v1,<base64>`.
 * Throws a `TypeError` when a secret or the id is malformed — a mistake of the caller's, not the receiver's.
 */
export function signStandardWebhook(input: { secret: string | readonly string[]; id: string; timestamp: Date; body: string | Uint8Array }): StandardWebhookHeaders {
  const keys = signingKeys(input.secret);
  if (!MESSAGE_ID.test(input.id)) throw new TypeError("A webhook id must be 1 to 255 printable ASCII characters without spaces or full stops.");
  const seconds = unixSeconds(input.timestamp);
  if (!Number.isFinite(seconds)) throw new TypeError("A webhook timestamp must be a valid date.");
  const timestamp = String(seconds);
  return {
    "webhook-id": input.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": keys.map((key) => `v1,${hmac(key, input.id, timestamp, input.body).toString("base64")}`).join(" "),
  };
}

function header(headers: ReceivedHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

/**
 * Checks a received webhook the way the specification asks a receiver to, and as the `standardwebhooks`
 * libraries do: given the raw body exactly as received (before any JSON parsing), refuse it unless
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` are there, the timestamp is within
 * `toleranceSeconds` of now (an old request replayed), and one `v1` signature in the space-separated
 * list matches HMAC-SHA256 of `${id}.${timestamp}.${body}`, compared in constant time. Then drop
 * repeats by the returned `id`: a retry carries the same id with a fresh timestamp and signature.
 * Several secrets may be given while one replaces another. Throws a `TypeError` only when a secret is
 * malformed, which is the receiver's configuration, not the request's fault.
 */
export function verifyStandardWebhook(
  secret: string | readonly string[],
  headers: ReceivedHeaders,
  body: string | Uint8Array,
  options: VerifyStandardWebhookOptions = {},
): StandardWebhookVerification {
  const keys = signingKeys(secret);
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp")?.trim();
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures || !UNIX_SECONDS.test(timestamp)) return { ok: false, reason: "malformed" };

  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const now = unixSeconds(options.now ?? new Date());
  if (Math.abs(now - Number(timestamp)) > tolerance) return { ok: false, reason: "stale" };

  // Compared as base64 text, as the reference libraries do, so that no other spelling of a digest passes.
  const expected = keys.map((key) => Buffer.from(hmac(key, id, timestamp, body).toString("base64")));
  const matches = signatures
    .split(" ")
    .map((entry) => entry.split(","))
    // Other versions (`v1a`, asymmetric) are skipped, not refused: a sender may add them alongside.
    .filter(([version, signature]) => version === "v1" && signature !== undefined)
    .map(([, signature]) => Buffer.from(signature!))
    .some((given) => expected.some((digest) => given.length === digest.length && timingSafeEqual(given, digest)));
  return matches ? { ok: true, id, timestamp: new Date(Number(timestamp) * 1000) } : { ok: false, reason: "mismatch" };
}

/** The body of a message as sent and signed: `{ "type", "timestamp" (ISO 8601), "data" }`, minified. */
export function standardWebhookBody(message: WebhookMessage): string {
  return JSON.stringify({ type: message.type, timestamp: message.timestamp.toISOString(), data: message.data });
}

function withDefaults(options: WebhookRetryOptions) {
  return {
    maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? 4)),
    attemptTimeoutMs: options.attemptTimeoutMs ?? 10_000,
    retryDelayMs: options.retryDelayMs ?? 1_000,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
  };
}

/**
 * The longest `deliverWebhook` can take with these options: every attempt timing out, with the
 * longest waits between them. Callers that run it from a job can size the job's own timeout from this.
 */
export function webhookDeliveryBoundMs(options: Pick<WebhookRetryOptions, "maxAttempts" | "attemptTimeoutMs" | "maxRetryDelayMs">): number {
  const { maxAttempts, attemptTimeoutMs, maxRetryDelayMs } = withDefaults(options);
  return maxAttempts * attemptTimeoutMs + (maxAttempts - 1) * maxRetryDelayMs;
}

/** 429 and 5xx mean "not now"; any other refusal will not change by asking again. */
function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** `Retry-After` as milliseconds from now, in either of its forms (seconds or an HTTP date). */
function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function describeNetworkError(error: unknown): string {
  // The report is stored, logged and shown to admins: a URL in an error's words loses its credentials.
  if (!(error instanceof Error)) return withoutUrlCredentials(String(error));
  // fetch reports "fetch failed" and puts the useful part (ECONNREFUSED, a TLS error…) in `cause`.
  const cause = error.cause;
  if (cause instanceof Error) return withoutUrlCredentials(`${error.message}: ${"code" in cause && cause.code ? String(cause.code) : cause.message}`);
  return withoutUrlCredentials(error.message);
}

function notSent(reason: string): DeliveryReport {
  return { notifier: "webhook", status: "failed", retryable: false, attempts: [{ attempt: 1, outcome: "rejected", error: `not sent: ${reason}`, durationMs: 0 }] };
}

/** What is fixed for every attempt of a delivery, or why it cannot be sent at all. */
function prepare(delivery: WebhookDelivery): { url: URL; body: string } | { refused: string } {
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return { refused: "the URL is not a URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { refused: `the URL must be http or https, not ${url.protocol}` };
  // fetch would refuse it on every attempt; said at once, and without the URL, whose password it would print.
  if (hasUrlCredentials(url)) return { refused: "the URL carries a user name or password, which Parley never sends" };
  const secrets = typeof delivery.secret === "string" ? [delivery.secret] : delivery.secret;
  if (secrets.length === 0 || !secrets.every(isWebhookSecret)) return { refused: "the signing secret is not whsec_ followed by 24 to 64 bytes in base64" };
  const { id, type, timestamp } = delivery.message;
  if (!MESSAGE_ID.test(id)) return { refused: "the message id must be 1 to 255 printable ASCII characters without spaces or full stops" };
  if (!EVENT_TYPE.test(type)) return { refused: `the event type ${JSON.stringify(String(type).slice(0, 100))} is not full-stop delimited letters, digits and underscores` };
  // Checked at run time too: an ISO string from an untyped caller must be a report, not a throw.
  if (!(timestamp instanceof Date) || Number.isNaN(timestamp.getTime())) return { refused: "the message's timestamp is not a valid Date" };
  try {
    return { url, body: standardWebhookBody(delivery.message) };
  } catch (error) {
    return { refused: `its data does not serialise to JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * POSTs one message to one endpoint as a Standard Webhook: the JSON envelope, `content-type` and
 * `user-agent`, and `webhook-id` (the message's id, the same on every attempt), `webhook-timestamp`
 * and `webhook-signature` (signed afresh on each attempt). Network errors, timeouts, 429 and 5xx are
 * retried with exponential backoff and jitter, honouring `Retry-After` up to `maxRetryDelayMs`; any
 * other status is final, redirects included (a signed message is never sent on to another address).
 *
 * Never throws, and takes at most `webhookDeliveryBoundMs(options)`: it resolves with a
 * `DeliveryReport` of every attempt. A message that cannot be sent at all (a bad URL, secret, id, type
 * or data) is reported as failed, not retryable, without a request.
 */
export async function deliverWebhook(delivery: WebhookDelivery): Promise<DeliveryReport> {
  const prepared = prepare(delivery);
  if ("refused" in prepared) return notSent(prepared.refused);
  const { url, body } = prepared;
  const { maxAttempts, attemptTimeoutMs, retryDelayMs, maxRetryDelayMs } = withDefaults(delivery);
  const now = delivery.now ?? Date.now;
  const random = delivery.random ?? Math.random;

  async function attemptOnce(attempt: number) {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Parley-Webhook/1",
          // A fresh timestamp per attempt: a receiver refuses old ones, so a late retry must not look replayed.
          ...signStandardWebhook({ secret: delivery.secret, id: delivery.message.id, timestamp: new Date(now()), body }),
        },
        body,
        redirect: "manual",
        // Covers connecting, the headers and (had we read it) the body: a hung receiver is dropped.
        signal: AbortSignal.timeout(attemptTimeoutMs),
      });
      // The response body is not needed; cancelling frees the connection instead of waiting on it.
      await response.body?.cancel().catch(() => {});
      const record: DeliveryAttempt = {
        attempt,
        outcome: response.ok ? "accepted" : "rejected",
        statusCode: response.status,
        ...(response.ok ? {} : { error: `HTTP ${response.status}` }),
        durationMs: elapsed(),
      };
      return { record, retry: !response.ok && isRetryableStatus(response.status), retryAfter: retryAfterMs(response.headers.get("retry-after"), now()) };
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      const record: DeliveryAttempt = timedOut
        ? { attempt, outcome: "timeout", error: `no response within ${attemptTimeoutMs} ms`, durationMs: elapsed() }
        : { attempt, outcome: "network-error", error: describeNetworkError(error), durationMs: elapsed() };
      return { record, retry: true, retryAfter: undefined };
    }
  }

  const attempts: DeliveryAttempt[] = [];
  for (let attempt = 1; ; attempt++) {
    const { record, retry, retryAfter } = await attemptOnce(attempt);
    attempts.push(record);
    if (record.outcome === "accepted") return { notifier: "webhook", status: "delivered", attempts };
    if (!retry) return { notifier: "webhook", status: "failed", retryable: false, attempts };
    if (attempt >= maxAttempts) return { notifier: "webhook", status: "failed", retryable: true, attempts };
    const backoff = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (attempt - 1));
    const jittered = backoff * (0.5 + random() / 2);
    await sleep(Math.min(maxRetryDelayMs, Math.max(jittered, retryAfter ?? 0)));
  }
}
