import { createHmac, timingSafeEqual } from "node:crypto";

/** The header that carries a webhook's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = "Parley-Signature";

/** How old (or how far ahead) a signature's timestamp may be, by default, when verified. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
}

/**
 * The `Parley-Signature` header value for `body` sent at `timestamp` (unix seconds): an HMAC-SHA256,
 * keyed with the shared secret, over `<timestamp>.<body>`.
 */
export function signWebhookBody(secret: string, body: string | Uint8Array, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

export type WebhookSignatureCheck =
  | { ok: true; timestamp: number }
  | { ok: false; reason: "malformed" | "stale" | "mismatch" };

/**
 * Checks a webhook the way a receiver should:
 *
 * 1. take the raw request body exactly as received — before any JSON parsing;
 * 2. read `t` and every `v1` from the `Parley-Signature` header;
 * 3. refuse when `t` is further than `toleranceSeconds` from now (a replayed old request);
 * 4. compute HMAC-SHA256(secret, `${t}.${body}`) as hex and compare it to each `v1` in constant time.
 *
 * Then de-duplicate by the `Idempotency-Key` header: a retry carries the same key with a fresh
 * signature. Several `v1` entries are accepted so that a secret can be rotated by signing with both.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  body: string | Uint8Array,
  toleranceSeconds: number = DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  now: number = Date.now(),
): WebhookSignatureCheck {
  if (!header) return { ok: false, reason: "malformed" };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === "t" && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return { ok: false, reason: "malformed" };
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return { ok: false, reason: "stale" };

  const expected = Buffer.from(hmacHex(secret, timestamp, body), "hex");
  const matches = signatures.some((signature) => timingSafeEqual(expected, Buffer.from(signature, "hex")));
  return matches ? { ok: true, timestamp } : { ok: false, reason: "mismatch" };
}
