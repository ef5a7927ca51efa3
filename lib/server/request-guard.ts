/**
 * Next.js answers some malformed requests with a 500 — a path that does not decode, and server-action
 * requests with a foreign `Origin`, a body over its limit or a body its decoder cannot read: it
 * throws, and the response says "server error" about what was the caller's mistake. proxy.ts runs
 * these checks first, so such requests get a 4xx and never reach the handler.
 *
 * Parley's actions take form data and plain previous states (React's `useActionState`), so the
 * arguments of a well-formed call use only a few of the encodings React's client can produce. The
 * rest (Maps, Sets, blobs, promises, streams, iterators, server references) are refused here:
 * React's decoder throws on malformed ones, and no Parley client sends them. So are keys and field
 * names like `__proto__` (no form of ours has them), and text with a NUL character (the database
 * can't store it, and a query given one fails).
 */

/** Next.js's default `serverActions.bodySizeLimit` (1 MB); larger bodies are refused by it, with a 500. */
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

/** Next.js refuses calls with more arguments than this (with a 500). */
const ACTION_ARGUMENTS_LIMIT = 1000;

/** Deeper than any previous state Parley sends, shallow enough to walk without a deep stack. */
const NESTING_LIMIT = 32;

/**
 * The `$`-strings React's client encodes plain data with: a FormData reference, an escaped
 * string, `undefined`, a date, a bigint and the special numbers.
 */
const PLAIN_REFERENCE = /^\$(?:K[0-9a-f]+|\$.*|undefined|D.*|n-?[0-9]+|Infinity|-Infinity|NaN|-0)$/s;

function refusal(status: number, message: string): Response {
  return new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

/** The host a request was addressed to, as Next.js's own check reads it: `x-forwarded-host` first, else `host`. */
export function requestHost(headers: Pick<Headers, "get">): string | null {
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || headers.get("host");
}

/** Whether `origin` is this site: Next.js runs no action for any other (and says so with a 500). */
function isSameOrigin(origin: string, headers: Headers): boolean {
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  return originHost !== "" && originHost === requestHost(headers);
}

/** Keys no Parley form or state has, and that only ever come from someone probing for prototype pollution. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Whether `value` is made only of what React's client sends for plain data. */
function isPlainEncoding(value: unknown, depth = 0): boolean {
  if (depth > NESTING_LIMIT) return false;
  if (typeof value === "string") return !hasNul(value) && (!value.startsWith("$") || PLAIN_REFERENCE.test(value));
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every((child) => isPlainEncoding(child, depth + 1));
  return Object.entries(value).every(([key, child]) => !PROTOTYPE_KEYS.has(key) && isPlainEncoding(child, depth + 1));
}

/** A FormData field's name as the action sees it, without React's `_<n>_` prefix. */
function fieldName(name: string): string {
  return name.replace(/^_[0-9a-f]+_/, "");
}

/** The root of a call's encoded arguments: a list of at most {@link ACTION_ARGUMENTS_LIMIT} plain values. */
function isWellFormedArguments(text: string): boolean {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return false;
  }
  return Array.isArray(root) && root.length <= ACTION_ARGUMENTS_LIMIT && isPlainEncoding(root);
}

/** PostgreSQL text can't hold a NUL character: a query given one fails, so none gets that far. */
function hasNul(text: string): boolean {
  return text.includes("\u0000");
}

/**
 * A 400 for a URL Next.js or the database would fail on with a 500: a path segment that does not
 * decode (`%E0%A4%A`), or a NUL character (`%00`) in the path or the query.
 */
export function refuseMalformedUrl(request: Request): Response | null {
  const { pathname, searchParams } = new URL(request.url);
  try {
    for (const segment of pathname.split("/")) if (hasNul(decodeURIComponent(segment))) return refusal(400, "The path contains a NUL character.");
  } catch {
    return refusal(400, "The path is not valid percent-encoded text.");
  }
  for (const [name, value] of searchParams) if (hasNul(name) || hasNul(value)) return refusal(400, "The query contains a NUL character.");
  return null;
}

/** The body, read up to `limit` bytes; null when it is longer (a body sent in chunks states no length). */
async function readBody(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The root (`0`) of a call's encoded arguments: the body itself, or a multipart body's field `0`. */
async function argumentsRoot(body: Uint8Array<ArrayBuffer>, contentType: string, isMultipart: boolean): Promise<string | null> {
  if (!isMultipart) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      return null;
    }
  }
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    return null;
  }
  for (const [name, value] of form) {
    if (PROTOTYPE_KEYS.has(fieldName(name)) || hasNul(name) || (typeof value === "string" && hasNul(value))) return null;
  }
  const field = form.get("0");
  return typeof field === "string" ? field : null;
}

/**
 * A 4xx response for a server-action request Next.js would otherwise answer with a 500, or null to
 * let the request through. A call (`Next-Action` header) and a form posted without JavaScript
 * (multipart) must come from this site and be no larger than the limit; a call's arguments must be
 * encoded as React's client encodes plain data.
 */
export async function refuseMalformedActionRequest(request: Request): Promise<Response | null> {
  if (request.method !== "POST") return null;
  const isCall = request.headers.has("next-action");
  const contentType = request.headers.get("content-type") ?? "";
  const isMultipart = contentType.toLowerCase().startsWith("multipart/form-data");
  if (!isCall && !isMultipart) return null;

  // Next.js lets a request with no Origin through (no browser leaves it out); any other must be this site.
  const origin = request.headers.get("origin");
  if (origin !== null && !isSameOrigin(origin, request.headers)) return refusal(403, "Cross-origin server action requests are refused.");

  const declared = Number(request.headers.get("content-length") ?? 0);
  const tooLarge = () => refusal(413, "The request is larger than a server action accepts (1 MB).");
  if (declared > ACTION_BODY_LIMIT_BYTES) return tooLarge();
  // Read (a copy of) the body even when its length is stated: a body sent in chunks states none,
  // and Next.js's own action forwarding sends one that way.
  const body = await readBody(request, ACTION_BODY_LIMIT_BYTES);
  if (!body) return tooLarge();
  if (!isCall) return null;
  const root = await argumentsRoot(body, contentType, isMultipart);
  if (root === null || !isWellFormedArguments(root)) return refusal(400, "Invalid server action arguments.");
  return null;
}
