/**
 * What kind of failure an error is, which says whether trying again can help:
 * - `refusal`: the request, or the answer, is refused as it stands (who asks, what is asked, when);
 * - `definition`: a workflow, or its agent, is wrong — it fails the same way every time, so a run
 *   whose job failed with it ends `failed` and is never retried (fix the workflow, start a new run);
 * - `transient`: something outside is away for now (the model, the database): try again later;
 * - `internal`: something went wrong on Parley's side.
 */
export type ErrorKind = "refusal" | "definition" | "transient" | "internal";

/**
 * The closed set of error codes Parley reports; each has its kind and a fixed user message. The HTTP
 * status a code is answered with is the HTTP edge's (`httpStatusOf` in lib/server/http-status.ts).
 */
export const ERROR_CODES = {
  unauthorized: { kind: "refusal", message: "Please sign in to continue." },
  forbidden: { kind: "refusal", message: "You don't have permission to do that." },
  not_found: { kind: "refusal", message: "We couldn't find that." },
  invalid_input: { kind: "refusal", message: "Some of what you entered needs another look." },
  conflict: { kind: "refusal", message: "Someone got there first." },
  already_answered: { kind: "refusal", message: "Someone already answered this question." },
  question_closed: { kind: "refusal", message: "This question closed without an answer." },
  attempts_exhausted: { kind: "refusal", message: "That was the last attempt: the question closed without an answer." },
  idempotency_conflict: { kind: "refusal", message: "This Idempotency-Key was used for a different request." },
  payload_too_large: { kind: "refusal", message: "The request is too large." },
  unsupported_media_type: { kind: "refusal", message: "Send the request as JSON (Content-Type: application/json)." },
  unprocessable: { kind: "refusal", message: "The request is well-formed, but Parley cannot do what it asks." },
  answer_refused: { kind: "refusal", message: "The answer was refused: see what was said about each field." },
  unknown_person: { kind: "refusal", message: "There is nobody by that email who can answer." },
  unknown_group: { kind: "refusal", message: "There is no group by that name." },
  unsupported_schema: { kind: "refusal", message: "This schema cannot be asked as questions." },
  rate_limited: { kind: "transient", message: "Too many requests: slow down and try again shortly." },
  not_parked: { kind: "refusal", message: "That run is not waiting for an answer." },
  memory_not_persistent: { kind: "definition", message: "This agent cannot ask a person: its memory is not persistent." },
  definition_error: { kind: "definition", message: "This workflow is wrong: fix it and start a new run." },
  model_unavailable: { kind: "transient", message: "The model could not be reached; the run can be retried." },
  unavailable: { kind: "transient", message: "Parley cannot reach its database just now: try again in a few seconds." },
  internal: { kind: "internal", message: "Something went wrong on our side. Nothing you entered was lost." },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The kind of a code Parley reports; undefined for one it does not (a library's, a workflow's own). */
export function kindOfCode(code: string): ErrorKind | undefined {
  return Object.hasOwn(ERROR_CODES, code) ? ERROR_CODES[code as ErrorCode].kind : undefined;
}

/**
 * Whether work that failed with `code` may be tried again: every code but a definition error's — a
 * passing failure, or one that can be put right before the retry (a refused request, a person
 * missing) — and any code Parley does not know.
 */
export function isRetryableCode(code: string): boolean {
  return kindOfCode(code) !== "definition";
}

/**
 * An error the user may be told about. Callers branch on `code`, never on the message text; the
 * message defaults to the code's fixed user message and may be made more specific.
 */
/** Marks an AppError whichever copy of this module made it (see {@link AppError}'s `instanceof`). */
const APP_ERROR = Symbol.for("parley.app-error");

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Where in the caller's input the problem is (`to[1]`, `response_schema.properties.x`), when it is in one place. */
  readonly path: string | undefined;
  /**
   * More the caller can act on, sent beside `code` and `message` in the API's error body (snake_case
   * keys): a refused answer's messages by field, who answered first and when.
   */
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly [APP_ERROR] = true;

  /** What kind of failure this is (see {@link ErrorKind}). */
  get kind(): ErrorKind {
    return ERROR_CODES[this.code].kind;
  }

  /** Whether trying again can help: false only for a definition error, which fails the same way every time. */
  get retryable(): boolean {
    return isRetryableCode(this.code);
  }

  /**
   * Next.js bundles a module once per layer, so an app's workflow code (reached through the
   * process-wide runtime) can throw another copy's AppError into a server action: `instanceof`
   * goes by the mark, not by which copy of the class made it.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
  }

  constructor(code: ErrorCode, message?: string, options?: { cause?: unknown; path?: string; details?: Record<string, unknown> }) {
    super(message ?? ERROR_CODES[code].message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.path = options?.path;
    this.details = options?.details;
  }
}

/** Whether a thrown value is an {@link AppError} (from any bundled copy of this module). */
export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
