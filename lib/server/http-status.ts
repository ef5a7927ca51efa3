import type { ErrorCode } from "@/lib/errors";

/**
 * The HTTP status each error code is answered with. Only the HTTP edge (the API's responses,
 * route handlers' refusals) speaks HTTP; lib/errors.ts and the runtime know codes and kinds. A
 * total map: a new code without a status does not compile.
 */
const HTTP_STATUS: { readonly [code in ErrorCode]: number } = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_input: 400,
  conflict: 409,
  already_answered: 409,
  question_closed: 409,
  attempts_exhausted: 409,
  idempotency_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  answer_refused: 422,
  unknown_person: 422,
  unknown_group: 422,
  unsupported_schema: 422,
  rate_limited: 429,
  not_parked: 409,
  memory_not_persistent: 500,
  definition_error: 500,
  model_unavailable: 503,
  unavailable: 503,
  internal: 500,
};

/** The HTTP status a refusal or failure with `code` is answered with. */
export function httpStatusOf(code: ErrorCode): number {
  return HTTP_STATUS[code];
}
