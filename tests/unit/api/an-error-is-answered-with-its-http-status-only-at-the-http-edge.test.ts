import { describe, expect, it } from "vitest";
import { AppError, ERROR_CODES, type ErrorCode } from "@/lib/errors";
import { apiError } from "@/lib/server/api-request";
import { httpStatusOf } from "@/lib/server/http-status";

/** The status the API has always answered each code with. */
const STATUSES: Record<ErrorCode, number> = {
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

describe("an error's HTTP status", () => {
  it.each(Object.keys(ERROR_CODES) as ErrorCode[])("%s is answered by the API with its status, which the error itself does not carry", async (code) => {
    const error = new AppError(code);
    expect(error).not.toHaveProperty("status");
    expect(ERROR_CODES[code]).not.toHaveProperty("status");
    expect(httpStatusOf(code)).toBe(STATUSES[code]);
    const response = apiError(error);
    expect(response.status).toBe(STATUSES[code]);
    expect(await response.json()).toEqual({ error: { code, message: ERROR_CODES[code].message } });
  });
});
