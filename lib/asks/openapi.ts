import { z } from "zod";
import { ERROR_CODES } from "@/lib/errors";
import { ApiErrorSchema, AskPageSchema, AskViewSchema } from "./api-schemas";
import { AskRequestBody } from "./ask-request";
import { MAX_PAGE_SIZE, MAX_WAIT_SECONDS } from "./asks";
import {
  AnswerRefusedErrorSchema,
  AnsweredSchema,
  AnswerRequestBody,
  ClosedWithNothingSchema,
  MeViewSchema,
  NothingRequestBody,
  QuestionConflictErrorSchema,
  QuestionDetailSchema,
  QuestionPageSchema,
  QuestionSpecSchema,
  QuestionSummarySchema,
} from "@/lib/questions-api/api-schemas";
import { DEFAULT_QUESTIONS_PAGE, MAX_QUESTIONS_PAGE } from "@/lib/questions-api/questions-api";

/** A component schema as JSON Schema 2020-12 (what OpenAPI 3.1 uses), without its own `$schema` line. */
function component(schema: z.ZodType, io: "input" | "output" = "output"): Record<string, unknown> {
  const json = { ...(z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", reused: "inline" }) as Record<string, unknown>) };
  delete json.$schema;
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A question's schema with its `spec` property pointing at the QuestionSpec component. */
function withSpecRef(schema: Record<string, unknown>): Record<string, unknown> {
  return { ...schema, properties: { ...(schema.properties as Record<string, unknown>), spec: ref("QuestionSpec") } };
}

const json = (schema: unknown) => ({ "application/json": { schema } });
const error = (description: string) => ({ description, content: json(ref("Error")) });

/** The refusals every authenticated operation can answer with. */
const COMMON_ERRORS = {
  "401": error("No API key, or one that is unknown or revoked."),
  "429": error("Over this key's rate; `Retry-After` says when to try again."),
};

const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "The ask's id." };
const questionIdParameter = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "The question's id." };

/** The person's operations are made with a personal token, not an agent key. */
const PERSONAL = [{ personalToken: [] }];

/** The refusals every operation of the person's side can answer with. */
const PERSONAL_ERRORS = {
  "401": error("No personal token, or one that is unknown or revoked (an agent key is not one)."),
  "429": error("Over this token's rate; `Retry-After` says when to try again."),
};

/**
 * Parley's HTTP API as an OpenAPI 3.1 document: the contract. Its schemas are made from the same
 * zod schemas the handlers judge requests and shape answers with, and a test holds the running
 * routes to it.
 */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley API",
      version: "1.0.0",
      description:
        "Ask a person from anywhere: the ask comes back at once and the answer arrives later — read it with a long-poll " +
        "(`GET /asks/{id}?wait=N`) or receive it as a webhook (`ask.answered`, `ask.nothing`, signed per Standard Webhooks). " +
        "Authenticate with `Authorization: Bearer <api key>`; admins make keys on the API keys page. " +
        "A person answers their own questions (`/me`, `/questions`) with a personal token (`pt_…`) they make on their profile — the `parley` command does. " +
        `Errors are \`{ error: { code, message, path? } }\`; codes: ${Object.keys(ERROR_CODES).join(", ")}.`,
    },
    servers: [{ url: new URL("/api/v1", serverUrl).toString() }],
    security: [{ apiKey: [] }],
    paths: {
      "/asks": {
        post: {
          operationId: "createAsk",
          summary: "Ask a person",
          parameters: [
            {
              name: "Idempotency-Key",
              in: "header",
              required: false,
              schema: { type: "string", maxLength: 255 },
              description: "The same key again returns the same ask (200), whatever its status; with a different request, 409.",
            },
          ],
          requestBody: { required: true, content: json(ref("AskRequest")) },
          responses: {
            "201": { description: "Asked: the ask, open (or already closed with nothing when the person is away).", content: json(ref("Ask")) },
            "200": { description: "The ask made earlier with this Idempotency-Key, as it is now.", content: json(ref("Ask")) },
            "400": error("Malformed: a field is missing, of the wrong type, or unknown."),
            "409": error("This Idempotency-Key was used for a different request."),
            "413": error("The body is over 256 KB."),
            "415": error("The body is not JSON."),
            "422": error(
              "Well-formed, but Parley cannot do it: an unknown person or group (`unknown_group`, also in an escalation step), a schema it cannot ask, a bad or past date, metadata over 4 KB, an escalation chain without a deadline.",
            ),
            ...COMMON_ERRORS,
          },
        },
        get: {
          operationId: "listAsks",
          summary: "This key's asks, newest first",
          parameters: [
            { name: "status", in: "query", required: false, schema: { type: "string", enum: ["open", "answered", "nothing"] } },
            { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 } },
            { name: "cursor", in: "query", required: false, schema: { type: "string" }, description: "`next_cursor` of the previous page." },
          ],
          responses: {
            "200": { description: "A page of asks.", content: json(ref("AskPage")) },
            "400": error("A status, limit or cursor the API does not know."),
            ...COMMON_ERRORS,
          },
        },
      },
      "/asks/{id}": {
        get: {
          operationId: "getAsk",
          summary: "One ask; with `wait`, held until it is answered or closed",
          parameters: [
            idParameter,
            {
              name: "wait",
              in: "query",
              required: false,
              schema: { type: "integer", minimum: 0, maximum: MAX_WAIT_SECONDS },
              description: "Seconds to hold the request while the ask is open; it returns as soon as the status changes.",
            },
          ],
          responses: {
            "200": { description: "The ask.", content: json(ref("Ask")) },
            "400": error("A wait that is not 0–60 seconds."),
            "404": error("No such ask, or another key's."),
            ...COMMON_ERRORS,
          },
        },
      },
      "/asks/{id}/cancel": {
        post: {
          operationId: "cancelAsk",
          summary: "Withdraw an open ask",
          parameters: [idParameter],
          responses: {
            "200": { description: "The ask, closed with nothing (reason `cancelled`).", content: json(ref("Ask")) },
            "404": error("No such ask, or another key's."),
            "409": error("It was already answered (the message says by whom and when), or closed for another reason."),
            ...COMMON_ERRORS,
          },
        },
      },
      "/me": {
        get: {
          operationId: "getMe",
          summary: "Who this personal token belongs to",
          security: PERSONAL,
          responses: { "200": { description: "The person.", content: json(ref("Me")) }, ...PERSONAL_ERRORS },
        },
      },
      "/questions": {
        get: {
          operationId: "listMyQuestions",
          summary: "My open questions, soonest due first",
          security: PERSONAL,
          parameters: [
            { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: MAX_QUESTIONS_PAGE, default: DEFAULT_QUESTIONS_PAGE } },
            { name: "cursor", in: "query", required: false, schema: { type: "string" }, description: "`next_cursor` of the previous page." },
          ],
          responses: {
            "200": { description: "A page of questions.", content: json(ref("QuestionPage")) },
            "400": error("A limit or cursor the API does not know."),
            ...PERSONAL_ERRORS,
          },
        },
      },
      "/questions/{id}": {
        get: {
          operationId: "getMyQuestion",
          summary: "One of my questions, open or closed, with its context",
          description: "`id` is the question's id, or the id of the API ask that put it to me: either way the question comes back under its own `id`.",
          security: PERSONAL,
          parameters: [questionIdParameter],
          responses: {
            "200": { description: "The question.", content: json(ref("QuestionDetail")) },
            "404": error("No such question, or it was not put to you."),
            ...PERSONAL_ERRORS,
          },
        },
      },
      "/questions/{id}/answer": {
        post: {
          operationId: "answerMyQuestion",
          summary: "Answer one of my questions with each field's text as typed",
          description:
            "The same text a person types at the terminal: a dash for the default, y/n, commas between items, the number or the word of a choice, " +
            "`none` for no value; a field left out is left empty. The asker's schema judges it. A refusal counts one attempt; the last one closes the question.",
          security: PERSONAL,
          parameters: [questionIdParameter],
          requestBody: { required: true, content: json(ref("AnswerRequest")) },
          responses: {
            "200": { description: "Taken: the value as the asker's schema typed it.", content: json(ref("Answered")) },
            "400": error("Malformed: not an object of texts, or a field the question does not have (no attempt is counted)."),
            "404": error("No such question, or it was not put to you."),
            "409": {
              description:
                "Refused, and that was the last attempt (`attempts_exhausted`, with the fields), or the question is no longer open: `already_answered` (who and when) or `question_closed` (why).",
              content: json({ oneOf: [ref("AnswerRefusedError"), ref("QuestionConflictError")] }),
            },
            "413": error("The body is over 256 KB."),
            "415": error("The body is not JSON."),
            "422": { description: "Refused (`answer_refused`): the schema's words by field, and the attempt about to be made.", content: json(ref("AnswerRefusedError")) },
            ...PERSONAL_ERRORS,
          },
        },
      },
      "/questions/{id}/nothing": {
        post: {
          operationId: "closeMyQuestionWithNothing",
          summary: "Close one of my questions with nothing: nobody is at the terminal",
          description: "The asker gets no answer, with reason `non-interactive` — the only reason this door takes. Saying it again is answered alike.",
          security: PERSONAL,
          parameters: [questionIdParameter],
          requestBody: { required: true, content: json(ref("NothingRequest")) },
          responses: {
            "200": { description: "Closed with nothing.", content: json(ref("ClosedWithNothing")) },
            "400": error("Another reason, or a malformed body."),
            "404": error("No such question, or it was not put to you."),
            "409": { description: "It was already answered (who and when), or closed for another reason.", content: json(ref("QuestionConflictError")) },
            "413": error("The body is over 256 KB."),
            "415": error("The body is not JSON."),
            ...PERSONAL_ERRORS,
          },
        },
      },
      "/openapi.json": {
        get: {
          operationId: "getOpenApiDocument",
          summary: "This document",
          security: [],
          responses: { "200": { description: "The OpenAPI 3.1 document.", content: json({ type: "object" }) } },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key made on the API keys page (`pk_…`)." },
        personalToken: { type: "http", scheme: "bearer", description: "A personal token a person makes on their profile (`pt_…`): it acts as that person." },
      },
      schemas: {
        AskRequest: component(AskRequestBody, "input"),
        Ask: component(AskViewSchema),
        AskPage: { ...component(AskPageSchema), properties: { data: { type: "array", items: ref("Ask") }, next_cursor: { type: ["string", "null"] } } },
        Error: component(ApiErrorSchema),
        Me: component(MeViewSchema),
        QuestionSpec: component(QuestionSpecSchema),
        // The spec is one component, referred to from both views of a question.
        Question: withSpecRef(component(QuestionSummarySchema)),
        QuestionPage: { ...component(QuestionPageSchema), properties: { data: { type: "array", items: ref("Question") }, next_cursor: { type: ["string", "null"] } } },
        QuestionDetail: withSpecRef(component(QuestionDetailSchema)),
        AnswerRequest: component(AnswerRequestBody, "input"),
        Answered: component(AnsweredSchema),
        NothingRequest: component(NothingRequestBody, "input"),
        ClosedWithNothing: component(ClosedWithNothingSchema),
        AnswerRefusedError: component(AnswerRefusedErrorSchema),
        QuestionConflictError: component(QuestionConflictErrorSchema),
      },
    },
  };
}
