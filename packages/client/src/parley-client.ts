import { ParleyAnswerError } from "./errors.js";
import { type FetchFunction, type RetryOptions, send, sleep, type Transport } from "./transport.js";
import type { Ask, AskInput, AskPage, AskResult, AskStatus, JsonSchemaObject, RequestOptions, Within } from "./types.js";

/** The longest a long-poll may hold (the API's limit). */
export const MAX_POLL_SECONDS = 60;

/** How to reach Parley. */
export interface ParleyClientOptions {
  /** Parley's address, e.g. `https://parley.example.com` (a trailing `/api/v1` is allowed). */
  baseUrl: string | URL;
  /** An agent key (`pk_…`), made by an admin on Admin → API keys. */
  apiKey: string;
  /** The `fetch` to send with (to add tracing, a proxy agent…); the global one by default. */
  fetch?: FetchFunction;
  /** How long each long-poll asks the server to hold (1–60 s); default 30. */
  pollSeconds?: number;
  /** How passing failures (network errors, 5xx, 429, a restarting server) are ridden out. */
  retry?: RetryOptions;
  /** How long a request may go unanswered beyond its long-poll wait before it is abandoned and tried again; default 30 s. */
  requestTimeoutMs?: number;
}

/**
 * A zod object schema: the answer's shape, each property one question (its `.describe()` is the
 * question). Written as the few members the client uses (zod's object shape, its Standard Schema
 * types, `safeParseAsync`) so that these declarations compile for callers without zod installed.
 */
export interface AnswerSchema {
  readonly shape: object;
  readonly "~standard": { readonly types?: { readonly input: unknown; readonly output: unknown } | undefined };
  safeParseAsync(value: unknown): Promise<{ success: true; data: unknown } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }>;
}

/** The value a schema gives back: its output type (`AnswerOf<Schema>` for a zod schema). */
export type AnswerOf<Schema extends AnswerSchema> = NonNullable<Schema["~standard"]["types"]>["output"];

/** Options of {@link ParleyClient.ask}. */
export interface AskOptions extends AskInput, RequestOptions {
  /**
   * The answer's shape. Sent as JSON Schema (`z.toJSONSchema`), judged by Parley when the person
   * answers, and checked again here; the value comes back typed as the schema's output. Without it
   * (and without `responseSchema`) the person gives one free-text answer, a string.
   */
  schema?: AnswerSchema;
  /**
   * Names this ask: the same key again gives the same ask back — open, or with its answer if it came
   * meanwhile — never a second question. Pass one you can make again (a job id, a step id) to resume
   * after your own process restarts; by default a random one, good for retries within this call only.
   */
  idempotencyKey?: string;
}

/** The input of {@link ParleyClient.createAsk}: what {@link AskOptions} takes, without the request options. */
export interface CreateAskInput extends AskInput {
  /** As {@link AskOptions.schema}. */
  schema?: AnswerSchema;
}

/** What {@link ParleyClient.createAsk} gives back. */
export interface CreatedAsk {
  ask: Ask;
  /** False when the Idempotency-Key had made this ask already (the API's 200 rather than 201). */
  created: boolean;
  /** The Idempotency-Key sent: the caller's, or the one generated. */
  idempotencyKey: string;
}

/** Options of {@link ParleyClient.listAsks}. */
export interface ListAsksOptions extends RequestOptions {
  status?: AskStatus;
  /** 1–100; the server's default is 20. */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string | null;
}

/** Options of {@link ParleyClient.getAsk}. */
export interface GetAskOptions extends RequestOptions {
  /** Seconds (0–60) to hold the request while the ask is open; it returns as soon as the status changes. */
  wait?: number;
}

/** Options of {@link ParleyClient.waitForAnswer}. */
export interface WaitOptions extends RequestOptions {
  /** The schema the ask was made with: the answer is checked against it and typed as its output. */
  schema?: AnswerSchema;
}

/** A client of one Parley for one agent key. */
export interface ParleyClient {
  /**
   * Asks a person and waits for the outcome: `{ ok: true, value }` with the answer, typed by `schema`
   * (a string without one), or `{ ok: false, reason }` when nobody answered — away (at once), refused,
   * expired, cancelled. Long-polls until then, riding out network errors, 5xx, 429 and server
   * restarts. Lasting refusals (401, 404, 409, 422, 400) throw {@link ParleyApiError}; a server gone
   * for longer than `retry.giveUpAfterMs`, {@link ParleyUnavailableError}. Aborting `signal` stops
   * waiting but leaves the ask open: ask again with the same `idempotencyKey` to pick it up.
   */
  ask<Schema extends AnswerSchema>(options: AskOptions & { schema: Schema }): Promise<AskResult<AnswerOf<Schema>>>;
  ask(options: AskOptions & { schema?: undefined; responseSchema: JsonSchemaObject }): Promise<AskResult<Record<string, unknown>>>;
  ask(options: AskOptions & { schema?: undefined; responseSchema?: undefined }): Promise<AskResult<string>>;
  /** `POST /asks`: makes the ask (or, with an Idempotency-Key already used, returns it as it is now) without waiting. */
  createAsk(input: CreateAskInput, options?: RequestOptions & { idempotencyKey?: string }): Promise<CreatedAsk>;
  /** `GET /asks/{id}`; with `wait`, held until the ask is answered or closed, or `wait` seconds pass. */
  getAsk(id: string, options?: GetAskOptions): Promise<Ask>;
  /** `GET /asks`: this key's asks, newest first, a page at a time. */
  listAsks(options?: ListAsksOptions): Promise<AskPage>;
  /** `POST /asks/{id}/cancel`: withdraws an open ask (it closes with nothing, `cancelled`); an answered one is a 409 {@link ParleyApiError}. */
  cancelAsk(id: string, options?: RequestOptions): Promise<Ask>;
  /** Long-polls an ask made earlier until it is answered or closed, then settles it as {@link ask} does. */
  waitForAnswer<Schema extends AnswerSchema>(id: string, options: WaitOptions & { schema: Schema }): Promise<AskResult<AnswerOf<Schema>>>;
  waitForAnswer(id: string, options?: WaitOptions & { schema?: undefined }): Promise<AskResult<unknown>>;
}

/** The API's body for an ask (snake_case), from the client's camelCase input. */
async function requestBody(input: CreateAskInput): Promise<Record<string, unknown>> {
  if (input.schema && input.responseSchema) throw new TypeError("Give schema or responseSchema, not both.");
  const body: Record<string, unknown> = { to: input.to, title: input.title };
  if (input.body !== undefined) body.body = input.body;
  if (input.context !== undefined) body.context = input.context;
  if (input.schema) body.response_schema = await jsonSchemaOf(input.schema);
  else if (input.responseSchema) body.response_schema = input.responseSchema;
  if (input.within !== undefined) body.due_in_seconds = secondsOf(input.within);
  if (input.dueAt !== undefined) body.due_at = input.dueAt instanceof Date ? input.dueAt.toISOString() : input.dueAt;
  if (input.attempts !== undefined) body.attempts = input.attempts;
  if (input.callbackUrl !== undefined) body.callback_url = input.callbackUrl;
  if (input.metadata !== undefined) body.metadata = input.metadata;
  return body;
}

/** Whole seconds in a span (the API takes whole seconds). */
function secondsOf(within: Within): number {
  return Math.round((within.days ?? 0) * 86_400 + (within.hours ?? 0) * 3_600 + (within.minutes ?? 0) * 60 + (within.seconds ?? 0));
}

/**
 * The schema as JSON Schema, describing what the person gives (the schema's input): a transform is
 * then applied here, when the answer is parsed. zod is loaded only when a schema is given.
 */
export async function jsonSchemaOf(schema: AnswerSchema): Promise<JsonSchemaObject> {
  const { toJSONSchema } = await import("zod");
  try {
    return toJSONSchema(schema as unknown as Parameters<typeof toJSONSchema>[0], { target: "draft-2020-12", io: "input" }) as JsonSchemaObject;
  } catch (error) {
    throw new TypeError(`This schema cannot be sent to Parley as JSON Schema: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** What the answer is expected to be: checked by a zod schema, an object (a JSON Schema's), a string (free text), or anything. */
type Expected = { schema: AnswerSchema } | "object" | "string" | "unknown";

/** An ask's outcome, with the answer checked as `expected`; undefined while it is open. */
async function settle(ask: Ask, expected: Expected): Promise<AskResult<unknown> | undefined> {
  if (ask.status === "open") return undefined;
  // The API gives every ask closed with nothing its reason.
  if (ask.status === "nothing") return ask.note ? { ok: false, reason: ask.reason, note: ask.note, ask } : { ok: false, reason: ask.reason, ask };
  if (typeof expected === "object") {
    const parsed = await expected.schema.safeParseAsync(ask.answer);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new ParleyAnswerError(ask, parsed.error.issues, `Parley accepted an answer your schema refuses${first ? ` (${first.path.map(String).join(".") || "the answer"}: ${first.message})` : ""}.`);
    }
    return { ok: true, value: parsed.data, ask };
  }
  if (expected === "string" && typeof ask.answer !== "string") {
    throw new ParleyAnswerError(ask, [], "A free-text ask was answered with something other than text.");
  }
  if (expected === "object" && (typeof ask.answer !== "object" || ask.answer === null || Array.isArray(ask.answer))) {
    throw new ParleyAnswerError(ask, [], "An ask with a response schema was answered with something other than an object.");
  }
  return { ok: true, value: ask.answer, ask };
}

/** An ask from a response body, checked just enough that the loop can trust `id` and `status`. */
function askOf(body: unknown): Ask {
  const ask = body as Partial<Ask> | null;
  if (!ask || typeof ask.id !== "string" || (ask.status !== "open" && ask.status !== "answered" && ask.status !== "nothing")) {
    throw new TypeError("Parley answered with something that is not an ask.");
  }
  return ask as Ask;
}

/** A fresh Idempotency-Key. */
function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** The API's root (`…/api/v1`) from the address the caller gave. */
function apiRoot(baseUrl: string | URL): string {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`baseUrl must be an http or https URL, not ${url.protocol}`);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  return `${url.origin}${path}/api/v1`;
}

/**
 * A client of Parley's HTTP API for one agent key:
 *
 * ```ts
 * const parley = createParleyClient({ baseUrl: "https://parley.example.com", apiKey: process.env.PARLEY_API_KEY! });
 * const answer = await parley.ask({ to: "sam@example.com", title: "Deploy?", schema: z.object({ go: z.boolean().describe("Go?") }), within: { hours: 4 } });
 * if (answer.ok) deploy(answer.value.go); else console.log("nobody answered:", answer.reason);
 * ```
 */
export function createParleyClient(options: ParleyClientOptions): ParleyClient {
  const root = apiRoot(options.baseUrl);
  if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") throw new TypeError("apiKey is required: an agent key (pk_…) from Admin → API keys.");
  const pollSeconds = options.pollSeconds ?? 30;
  if (!Number.isInteger(pollSeconds) || pollSeconds < 1 || pollSeconds > MAX_POLL_SECONDS) throw new RangeError(`pollSeconds is a whole number from 1 to ${MAX_POLL_SECONDS}.`);
  const given = options.fetch;
  const transport: Transport = {
    // Called bare, never as a method: a browser's fetch refuses another `this`.
    fetch: given ?? ((input, init) => globalThis.fetch(input, init)),
    apiKey: options.apiKey.trim(),
    retry: { minDelayMs: 250, maxDelayMs: 15_000, giveUpAfterMs: 10 * 60_000, ...options.retry },
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
  };
  const askUrl = (id: string) => `${root}/asks/${encodeURIComponent(id)}`;

  async function waitUntilClosed(id: string, expected: Expected, signal: AbortSignal | undefined): Promise<AskResult<unknown>> {
    for (;;) {
      const started = Date.now();
      const ask = await client.getAsk(id, { wait: pollSeconds, ...(signal ? { signal } : {}) });
      const settled = await settle(ask, expected);
      if (settled) return settled;
      // A wait that came back open at once (a proxy cutting it short, say) must not become a busy loop.
      const elapsed = Date.now() - started;
      if (elapsed < 1000) await sleep(1000 - elapsed, signal);
    }
  }

  const client = {
    async ask(askOptions: AskOptions): Promise<AskResult<unknown>> {
      const { idempotencyKey, signal, ...input } = askOptions;
      const expected: Expected = input.schema ? { schema: input.schema } : input.responseSchema ? "object" : "string";
      const { ask } = await client.createAsk(input, { ...(idempotencyKey !== undefined ? { idempotencyKey } : {}), ...(signal ? { signal } : {}) });
      return (await settle(ask, expected)) ?? waitUntilClosed(ask.id, expected, signal);
    },

    async createAsk(input: CreateAskInput, createOptions: RequestOptions & { idempotencyKey?: string } = {}): Promise<CreatedAsk> {
      const idempotencyKey = createOptions.idempotencyKey ?? newIdempotencyKey();
      const response = await send<unknown>(transport, {
        method: "POST",
        url: `${root}/asks`,
        body: await requestBody(input),
        headers: { "idempotency-key": idempotencyKey },
        idempotent: true,
        ...(createOptions.signal ? { signal: createOptions.signal } : {}),
      });
      return { ask: askOf(response.body), created: response.status === 201, idempotencyKey };
    },

    async getAsk(id: string, getOptions: GetAskOptions = {}): Promise<Ask> {
      const wait = getOptions.wait;
      if (wait !== undefined && (!Number.isInteger(wait) || wait < 0 || wait > MAX_POLL_SECONDS)) throw new RangeError(`wait is a whole number of seconds from 0 to ${MAX_POLL_SECONDS}.`);
      const response = await send<unknown>(transport, {
        method: "GET",
        url: wait === undefined ? askUrl(id) : `${askUrl(id)}?wait=${wait}`,
        ...(wait !== undefined ? { holdSeconds: wait } : {}),
        ...(getOptions.signal ? { signal: getOptions.signal } : {}),
      });
      return askOf(response.body);
    },

    async listAsks(listOptions: ListAsksOptions = {}): Promise<AskPage> {
      const query = new URLSearchParams();
      if (listOptions.status !== undefined) query.set("status", listOptions.status);
      if (listOptions.limit !== undefined) query.set("limit", String(listOptions.limit));
      if (listOptions.cursor) query.set("cursor", listOptions.cursor);
      const text = query.toString();
      const response = await send<AskPage>(transport, {
        method: "GET",
        url: `${root}/asks${text ? `?${text}` : ""}`,
        ...(listOptions.signal ? { signal: listOptions.signal } : {}),
      });
      return response.body;
    },

    async cancelAsk(id: string, cancelOptions: RequestOptions = {}): Promise<Ask> {
      // Cancelling twice is the same as once, so a cancel is safe to send again after a lost response.
      const response = await send<unknown>(transport, {
        method: "POST",
        url: `${askUrl(id)}/cancel`,
        idempotent: true,
        ...(cancelOptions.signal ? { signal: cancelOptions.signal } : {}),
      });
      return askOf(response.body);
    },

    async waitForAnswer(id: string, waitOptions: WaitOptions = {}): Promise<AskResult<unknown>> {
      return waitUntilClosed(id, waitOptions.schema ? { schema: waitOptions.schema } : "unknown", waitOptions.signal);
    },
  };
  return client as ParleyClient;
}
