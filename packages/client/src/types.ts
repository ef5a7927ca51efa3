// The API's shapes as the client sees them. They mirror lib/asks/api-schemas.ts (the contract the
// OpenAPI document publishes) without importing it: client/ stands alone. A type test
// (tests/unit/client/the-clients-ask-type-matches-the-api.test-d.ts) keeps the two in step.

/** Why nobody answered an ask. */
export type NothingReason = "refused" | "away" | "non-interactive" | "expired" | "cancelled" | "unavailable" | "declined";

/** Where an ask stands: waiting for the person, answered, or closed with nothing. */
export type AskStatus = "open" | "answered" | "nothing";

/** What every ask has, whatever its status (snake_case, as on the wire). */
interface AskBase {
  /** The ask's id. */
  id: string;
  title: string;
  body: string | null;
  context: Record<string, string | number | boolean> | null;
  /** `to` as it was given. */
  to: string | string[] | { group: string };
  /** The question's page, where the person answers it. */
  url: string;
  /** The question's id: the person's side of the API (`/questions/{id}`) and the `question.*` webhooks name it. */
  question_id: string;
  due_at: string | null;
  created_at: string;
  metadata: Record<string, unknown> | null;
  /** Refused submissions allowed, and spent so far. */
  attempts: { allowed: number; refused: number };
  /** From the ask to its answer or its closing; until now while it is open. */
  waited_seconds: number;
}

/** An ask waiting for the person. */
export interface OpenAsk extends AskBase {
  status: "open";
  answer: null;
  answered_by: null;
  answered_at: null;
  reason: null;
  declined_by: null;
  note: null;
}

/** An ask the person answered. */
export interface AnsweredAsk extends AskBase {
  status: "answered";
  /** The value the response schema accepted: an object of its properties, or a string for a free-text ask. */
  answer: Record<string, unknown> | string;
  answered_by: { email: string; name: string } | null;
  /** When it was answered. */
  answered_at: string;
  reason: null;
  declined_by: null;
  note: null;
}

/** An ask closed with nothing: nobody will answer it. */
export interface NothingAsk extends AskBase {
  status: "nothing";
  answer: null;
  answered_by: null;
  /** When it closed. */
  answered_at: string | null;
  /** Why nobody answered: `declined` when the person said they cannot answer it. */
  reason: NothingReason;
  /** Who declined it, for reason `declined`; otherwise null. */
  declined_by: { email: string; name: string } | null;
  /** What the person who declined wrote for the asker, when they wrote something. */
  note: string | null;
}

/** An ask as the API returns it: one shape per `status` (`open`, `answered`: see `answer`, `nothing`: see `reason`). */
export type Ask = OpenAsk | AnsweredAsk | NothingAsk;

/** A page of asks, newest first. */
export interface AskPage {
  data: Ask[];
  /** Pass as `cursor` for the next page; null on the last. */
  next_cursor: string | null;
}

/**
 * What a person gave back: the typed value, or nothing with its reason — one branch for every reason
 * nobody answered (the runtime's `PersonAnswer`), with the ask itself for who answered, when and where.
 */
export type AskResult<Value> =
  | { readonly ok: true; readonly value: Value; readonly ask: Ask }
  /** `note`: what the person who declined (reason `declined`) wrote, when they wrote something. */
  | { readonly ok: false; readonly reason: NothingReason; readonly note?: string; readonly ask: Ask };

/** A span of time as people write it: `{ hours: 4 }`, `{ days: 1, hours: 2 }`. */
export interface Within {
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
}

/** A JSON Schema object, as `response_schema` takes it. */
export type JsonSchemaObject = Record<string, unknown>;

/** What to ask and of whom (camelCase; the client writes it as the API's snake_case body). */
export interface AskInput {
  /** One person's email, or several (candidates: any one of them may answer). */
  to: string | readonly string[];
  /** What the person reads first. */
  title: string;
  /** More detail, shown with the question. */
  body?: string;
  /** Facts shown beside the question. */
  context?: Record<string, string | number | boolean>;
  /**
   * The answer's shape as a JSON Schema object, for callers without zod. With neither this nor a
   * zod `schema`, the person gives one free-text answer.
   */
  responseSchema?: JsonSchemaObject;
  /** The deadline as a span from now (sent as `due_in_seconds`, so the same request made again is the same). */
  within?: Within;
  /** The deadline as a moment. Give `within` or `dueAt`, not both. */
  dueAt?: Date | string;
  /** Refused submissions the person may make before the ask closes with nothing (`refused`); the server's default is 3. */
  attempts?: number;
  /** Where Parley posts the ask's outcome as a webhook. */
  callbackUrl?: string;
  /** Your own data, kept with the ask and returned with it (at most 4 KB as JSON). */
  metadata?: Record<string, unknown>;
}

/** Options of one request. */
export interface RequestOptions {
  /** Stops the request (and its retries); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}
