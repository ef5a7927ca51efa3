/** The closed set of error codes Parley reports; each has a fixed user message and HTTP status. */
export const ERROR_CODES = {
  unauthorized: { status: 401, message: "Please sign in to continue." },
  forbidden: { status: 403, message: "You don't have permission to do that." },
  not_found: { status: 404, message: "We couldn't find that." },
  invalid_input: { status: 400, message: "Some of what you entered needs another look." },
  conflict: { status: 409, message: "Someone got there first." },
  already_answered: { status: 409, message: "Someone already answered this question." },
  question_closed: { status: 409, message: "This question closed without an answer." },
  attempts_exhausted: { status: 409, message: "That was the last attempt: the question closed without an answer." },
  idempotency_conflict: { status: 409, message: "This Idempotency-Key was used for a different request." },
  payload_too_large: { status: 413, message: "The request is too large." },
  unsupported_media_type: { status: 415, message: "Send the request as JSON (Content-Type: application/json)." },
  unprocessable: { status: 422, message: "The request is well-formed, but Parley cannot do what it asks." },
  answer_refused: { status: 422, message: "The answer was refused: see what was said about each field." },
  unknown_person: { status: 422, message: "There is nobody by that email who can answer." },
  unknown_group: { status: 422, message: "There is no group by that name." },
  unsupported_schema: { status: 422, message: "This schema cannot be asked as questions." },
  rate_limited: { status: 429, message: "Too many requests: slow down and try again shortly." },
  not_parked: { status: 409, message: "That run is not waiting for an answer." },
  memory_not_persistent: { status: 500, message: "This agent cannot ask a person: its memory is not persistent." },
  definition_error: { status: 500, message: "This workflow is wrong: fix it and start a new run." },
  model_unavailable: { status: 503, message: "The model could not be reached; the run can be retried." },
  unavailable: { status: 503, message: "Parley cannot reach its database just now: try again in a few seconds." },
  internal: { status: 500, message: "Something went wrong on our side. Nothing you entered was lost." },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * An error the user may be told about. Callers branch on `code`, never on the message text; the
 * message defaults to the code's fixed user message and may be made more specific.
 */
/** Marks an AppError whichever copy of this module made it (see {@link AppError}'s `instanceof`). */
const APP_ERROR = Symbol.for("parley.app-error");

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Where in the caller's input the problem is (`to[1]`, `response_schema.properties.x`), when it is in one place. */
  readonly path: string | undefined;
  /**
   * More the caller can act on, sent beside `code` and `message` in the API's error body (snake_case
   * keys): a refused answer's messages by field, who answered first and when.
   */
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly [APP_ERROR] = true;

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
    this.status = ERROR_CODES[code].status;
    this.path = options?.path;
    this.details = options?.details;
  }
}

/** Whether a thrown value is an {@link AppError} (from any bundled copy of this module). */
export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
