import type { Ask } from "./types.js";

/**
 * A refusal from Parley that asking again will not heal: 400 (malformed), 401 (no key, or an unknown
 * or revoked one), 403, 404 (no such ask, or another key's), 409 (an Idempotency-Key used for a
 * different request, an answered ask cancelled), 413, 415, 422 (an unknown person, a schema that
 * cannot be asked, a past deadline). Branch on `code`, never on `message`.
 */
export class ParleyApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The API's stable error code (`unauthorized`, `not_found`, `unknown_person`, `unsupported_schema`…), or `http_<status>` when the response was not the API's error shape. */
  readonly code: string;
  /** Where in the request the problem is (`to[1]`, `response_schema.properties.x`, `Idempotency-Key`), when it is in one place. */
  readonly path: string | undefined;

  constructor(status: number, code: string, message: string, path?: string) {
    super(message);
    this.name = "ParleyApiError";
    this.status = status;
    this.code = code;
    this.path = path;
  }
}

/**
 * Parley could not be reached, or kept answering with a passing failure (5xx, 429), for longer than
 * the client was told to keep trying (`retry.giveUpAfterMs`). Nothing was refused: the same request
 * again later — `ask` with the same `idempotencyKey` — carries on where this one stopped.
 */
export class ParleyUnavailableError extends Error {
  /** The last response's HTTP status, when the last failure was a response (undefined for a network error). */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "ParleyUnavailableError";
    this.status = options.status;
  }
}

/**
 * Parley accepted an answer that the caller's own schema refuses when the client checks it again: a
 * refinement or transform that JSON Schema cannot say (`.refine`, `.superRefine`, `.check`) is judged
 * only here. The ask is answered; `answer` is what the person gave, `issues` why the schema refused it.
 */
export class ParleyAnswerError extends Error {
  /** The answered ask. */
  readonly ask: Ask;
  /** The value as Parley returned it. */
  readonly answer: unknown;
  /** The schema's issues (zod's, when the schema is a zod schema). */
  readonly issues: readonly unknown[];

  constructor(ask: Ask, issues: readonly unknown[], message: string) {
    super(message);
    this.name = "ParleyAnswerError";
    this.ask = ask;
    this.answer = ask.answer;
    this.issues = issues;
  }
}
