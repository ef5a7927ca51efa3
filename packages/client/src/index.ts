/**
 * Parley's typed HTTP client: ask a person from any TypeScript process and get the answer back typed.
 * Standalone — it needs `fetch` and, when you pass a schema, zod; nothing of the Parley app.
 * See client/README.md.
 */
export {
  type AnswerOf,
  type AnswerSchema,
  type AskOptions,
  type CreateAskInput,
  type CreatedAsk,
  createParleyClient,
  type GetAskOptions,
  type ListAsksOptions,
  MAX_POLL_SECONDS,
  type ParleyClient,
  type ParleyClientOptions,
  type WaitOptions,
} from "./parley-client.js";
export { ParleyAnswerError, ParleyApiError, ParleyUnavailableError } from "./errors.js";
export type { RetryOptions } from "./transport.js";
export type { AnsweredAsk, Ask, AskInput, AskPage, AskResult, AskStatus, JsonSchemaObject, NothingAsk, NothingReason, OpenAsk, RequestOptions, Within } from "./types.js";
