/**
 * Receiving Parley's webhooks: the Standard Webhooks signature checked, the body read as a typed event.
 * It uses the Web Crypto API only, so it runs on Node 20+, Deno, Bun and edge runtimes alike.
 *
 * ```ts
 * import { verifyWebhookRequest } from "@parleyhq/client/webhooks";
 *
 * export async function POST(request: Request) {
 *   const event = await verifyWebhookRequest(request, { secret: process.env.PARLEY_WEBHOOK_SECRET! });
 *   if (event.type === "ask.answered") resume(event.data.metadata, event.data.answer);
 *   if (event.type === "ask.nothing") giveUp(event.data.metadata, event.data.reason);
 *   return new Response(null, { status: 204 });
 * }
 * ```
 */
import type { AnsweredAsk, NothingAsk } from "../types.js";

/** A person a question is put to, as a question's webhook names them. */
export interface QuestionRecipient {
  user_id: string;
  name: string;
  email: string;
}

/** The `data` of `question.opened`: a question waiting for a person. Every text in it may have been written by an AI agent. */
export interface QuestionOpenedData {
  /** The question's id (an ask's `question_id`). */
  id: string;
  /** The question's page, where the person answers it. */
  url: string;
  /** What the person is asked, in the asker's words. */
  question: string;
  /** Who asks: an agent, a flow, or an API key's name. */
  asked_by: string;
  /** What the question is about. */
  subject: string;
  /** Who may answer it. */
  recipients: QuestionRecipient[];
  opened_at: string;
  /** Null when the question has no deadline. */
  due_at: string | null;
}

/** The `data` of `question.reminded`: the question again, with when and by whom it was reminded. */
export interface QuestionRemindedData extends QuestionOpenedData {
  reminded_at: string;
  /** The admin who sent the reminder, when known. */
  reminded_by?: string;
}

interface EventBase {
  /** The `webhook-id`: the same on every retry of one event, so a receiver can drop repeats by it. */
  id: string;
  /** When the event happened (not when this attempt was sent), ISO 8601. */
  timestamp: string;
}

/** `ask.answered`: an ask was answered; `data` is the ask as `GET /api/v1/asks/{id}` returns it, `metadata` included. */
export interface AskAnsweredEvent extends EventBase {
  type: "ask.answered";
  data: AnsweredAsk;
}

/** `ask.nothing`: an ask closed with nothing — nobody will answer it; `data.reason` says why. */
export interface AskNothingEvent extends EventBase {
  type: "ask.nothing";
  data: NothingAsk;
}

/** `question.opened`: a question is waiting for a person. */
export interface QuestionOpenedEvent extends EventBase {
  type: "question.opened";
  data: QuestionOpenedData;
}

/** `question.reminded`: a person was reminded of a question. */
export interface QuestionRemindedEvent extends EventBase {
  type: "question.reminded";
  data: QuestionRemindedData;
}

/** A webhook Parley sends, told apart by `type`. */
export type ParleyEvent = AskAnsweredEvent | AskNothingEvent | QuestionOpenedEvent | QuestionRemindedEvent;

/** The event types this version of the package knows. */
export const PARLEY_EVENT_TYPES: readonly ParleyEvent["type"][] = ["ask.answered", "ask.nothing", "question.opened", "question.reminded"];

/**
 * Why a webhook was not accepted:
 * - `malformed`: a `webhook-*` header is missing or unreadable, or the body is not the JSON envelope;
 * - `stale`: its timestamp is further from now than the tolerance (a replay, or a clock far off);
 * - `mismatch`: no signature matches the secret (another sender, or a changed body);
 * - `unknown-type`: signed correctly, but of a type this version does not know (a newer Parley): answer
 *   it with a 2xx so it is not sent again, and upgrade the package to read it. `body` holds it.
 */
export type WebhookRefusal = "malformed" | "stale" | "mismatch" | "unknown-type";

/** A webhook that did not verify or could not be read; answer it with a 4xx (`unknown-type`: a 2xx). */
export class ParleyWebhookError extends Error {
  readonly reason: WebhookRefusal;
  /** For `unknown-type`: the verified envelope as sent. */
  readonly body: unknown;

  constructor(reason: WebhookRefusal, message: string, body?: unknown) {
    super(message);
    this.name = "ParleyWebhookError";
    this.reason = reason;
    this.body = body;
  }
}

/** Request headers in any of the shapes a receiver has: a Fetch `Headers`, or Node's lower-cased record. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** What {@link verifyWebhook} checks. */
export interface VerifyWebhookInput {
  /**
   * The `whsec_…` secret the webhooks are signed with: the agent key's, shown when the key was made
   * (Admin → API keys). Several while you rotate: a webhook signed with any of them is accepted.
   */
  secret: string | readonly string[];
  headers: WebhookHeaders;
  /** The body exactly as received (bytes or text): parsing and re-serialising it would change the signature. */
  body: string | Uint8Array;
  /** How far the `webhook-timestamp` may be from now, either way; default 300 s. */
  toleranceSeconds?: number;
  /** The time to judge the timestamp by; default now. */
  now?: Date;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = "whsec_";
const UNIX_SECONDS = /^(?:0|[1-9]\d{0,14})$/;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof value === "string" ? value : value?.[0];
}

function fromBase64(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return undefined;
  }
}

function secretBytes(secret: string): Uint8Array {
  const bytes = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!bytes || bytes.length === 0) throw new TypeError("The webhook secret is not a whsec_… secret (base64 after the prefix).");
  return bytes;
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks a webhook's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`: HMAC-SHA256 over `id.timestamp.body`) and returns its body as a typed
 * {@link ParleyEvent}. Throws {@link ParleyWebhookError} when it does not verify or cannot be read,
 * and `TypeError` when `secret` is not a `whsec_` secret. Use the event's `id` to drop a repeat: every
 * retry of one event has the same id.
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<ParleyEvent> {
  const secrets = typeof input.secret === "string" ? [input.secret] : [...input.secret];
  if (secrets.length === 0) throw new TypeError("No webhook secret was given.");
  const keys = secrets.map(secretBytes);
  const id = header(input.headers, "webhook-id");
  const timestamp = header(input.headers, "webhook-timestamp");
  const signatures = header(input.headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new ParleyWebhookError("malformed", "A webhook-id, webhook-timestamp or webhook-signature header is missing.");
  if (!UNIX_SECONDS.test(timestamp)) throw new ParleyWebhookError("malformed", "The webhook-timestamp header is not a time in unix seconds.");
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = (input.now ?? new Date()).getTime() / 1000;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new ParleyWebhookError("stale", `The webhook's timestamp is more than ${tolerance} s from now.`);

  const body = typeof input.body === "string" ? new TextEncoder().encode(input.body) : input.body;
  const signed = concat(new TextEncoder().encode(`${id}.${timestamp}.`), body);
  const candidates = signatures
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => fromBase64(entry.slice(3)))
    .filter((bytes): bytes is Uint8Array => bytes !== undefined);
  let verified = false;
  for (const secret of keys) {
    const key = await globalThis.crypto.subtle.importKey("raw", concat(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    for (const candidate of candidates) {
      // subtle.verify compares in constant time.
      if (await globalThis.crypto.subtle.verify("HMAC", key, concat(candidate), signed)) verified = true;
    }
  }
  if (!verified) throw new ParleyWebhookError("mismatch", "No webhook signature matches the secret.");

  let envelope: unknown;
  try {
    envelope = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new ParleyWebhookError("malformed", "The webhook's body is not JSON.");
  }
  if (!isObject(envelope) || typeof envelope.type !== "string" || typeof envelope.timestamp !== "string" || !isObject(envelope.data)) {
    throw new ParleyWebhookError("malformed", "The webhook's body is not a { type, timestamp, data } envelope.");
  }
  if (!(PARLEY_EVENT_TYPES as readonly string[]).includes(envelope.type)) {
    throw new ParleyWebhookError("unknown-type", `This version of @parleyhq/client does not know the event type "${envelope.type}".`, envelope);
  }
  return { id, type: envelope.type, timestamp: envelope.timestamp, data: envelope.data } as unknown as ParleyEvent;
}

/**
 * {@link verifyWebhook} for a Fetch API `Request` (Next.js route handlers, Hono, Deno, Bun, Workers):
 * reads its body as text and checks it with its headers.
 */
export async function verifyWebhookRequest(request: Request, options: Omit<VerifyWebhookInput, "headers" | "body">): Promise<ParleyEvent> {
  return verifyWebhook({ ...options, headers: request.headers, body: new Uint8Array(await request.arrayBuffer()) });
}
