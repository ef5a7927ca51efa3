import { setTimeout as sleep } from "node:timers/promises";
import { noticeDeliveryId, type DeliveryAttempt, type DeliveryReport, type Notifier, type QuestionNotice } from "./question-notice";
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from "./webhook-signature";

export interface WebhookNotifierOptions {
  /** Where notices are POSTed, as JSON. */
  url: string;
  /** Shared with the receiver, which verifies with `verifyWebhookSignature`. */
  secret: string;
  /** Tries per notice, the first included. Default 4. */
  maxAttempts?: number;
  /** Each try is abandoned after this long, a slow or hung receiver included. Default 10 s. */
  attemptTimeoutMs?: number;
  /** The wait before the first retry; it doubles for each later one. Default 1 s. */
  retryDelayMs?: number;
  /** No wait between tries is longer, a receiver's `Retry-After` included. Default 30 s. */
  maxRetryDelayMs?: number;
  /** Unix time in milliseconds, for the signature's timestamp. */
  now?: () => number;
  /** In [0, 1), for the jitter that keeps many senders from retrying in step. */
  random?: () => number;
}

/** The idempotency header: one value per notice, the same on every retry. */
export const WEBHOOK_IDEMPOTENCY_HEADER = "Idempotency-Key";
/** The notice's kind, so a receiver can route before parsing the body. */
export const WEBHOOK_EVENT_HEADER = "Parley-Event";

/**
 * The longest `notify` can take: every attempt timing out, with the longest waits between them.
 * Callers that run it from a job can size the job's own timeout from this.
 */
export function webhookDeliveryBoundMs(options: Pick<WebhookNotifierOptions, "maxAttempts" | "attemptTimeoutMs" | "maxRetryDelayMs">): number {
  const { maxAttempts, attemptTimeoutMs, maxRetryDelayMs } = withDefaults(options);
  return maxAttempts * attemptTimeoutMs + (maxAttempts - 1) * maxRetryDelayMs;
}

function withDefaults(options: Partial<WebhookNotifierOptions>) {
  return {
    maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? 4)),
    attemptTimeoutMs: options.attemptTimeoutMs ?? 10_000,
    retryDelayMs: options.retryDelayMs ?? 1_000,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
  };
}

/** 429 and 5xx mean "not now"; any other refusal will not change by asking again. */
function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** `Retry-After` as milliseconds from now, in either of its forms (seconds or an HTTP date). */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and puts the useful part (ECONNREFUSED, a TLS error…) in `cause`.
  const cause = error.cause;
  if (cause instanceof Error) return `${error.message}: ${"code" in cause && cause.code ? String(cause.code) : cause.message}`;
  return error.message;
}

/**
 * A notifier that POSTs each notice as JSON to one URL, signed with `Parley-Signature` and keyed with
 * `Idempotency-Key`. It retries network errors, timeouts, 429 and 5xx with exponential backoff (with
 * jitter, honouring `Retry-After` up to `maxRetryDelayMs`), gives up at once on any other status
 * (redirects included: a signed notice is never sent on to another address), and resolves with a
 * report — it never throws. It takes at most `webhookDeliveryBoundMs(options)`.
 */
export function createWebhookNotifier(options: WebhookNotifierOptions): Notifier {
  const { maxAttempts, attemptTimeoutMs, retryDelayMs, maxRetryDelayMs } = withDefaults(options);
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const url = new URL(options.url);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`A webhook URL must be http or https, not ${url.protocol}`);

  async function attemptOnce(attempt: number, body: string, deliveryId: string, kind: string) {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Parley-Webhook/1",
          [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(options.secret, body, Math.floor(now() / 1000)),
          [WEBHOOK_IDEMPOTENCY_HEADER]: deliveryId,
          [WEBHOOK_EVENT_HEADER]: kind,
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

  return {
    name: "webhook",
    async notify(notice: QuestionNotice): Promise<DeliveryReport> {
      const body = JSON.stringify(notice);
      const deliveryId = noticeDeliveryId(notice);
      const attempts: DeliveryAttempt[] = [];
      for (let attempt = 1; ; attempt++) {
        const { record, retry, retryAfter } = await attemptOnce(attempt, body, deliveryId, notice.kind);
        attempts.push(record);
        if (record.outcome === "accepted") return { notifier: "webhook", status: "delivered", attempts };
        if (!retry) return { notifier: "webhook", status: "failed", retryable: false, attempts };
        if (attempt >= maxAttempts) return { notifier: "webhook", status: "failed", retryable: true, attempts };
        const backoff = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (attempt - 1));
        const jittered = backoff * (0.5 + random() / 2);
        await sleep(Math.min(maxRetryDelayMs, Math.max(jittered, retryAfter ?? 0)));
      }
    },
  };
}
