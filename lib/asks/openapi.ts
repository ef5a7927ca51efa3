import { z } from "zod";
import { ERROR_CODES } from "@/lib/errors";
import { AnsweredAskSchema, ApiErrorSchema, AskPageSchema, NothingAskSchema, OpenAskSchema } from "./api-schemas";
import { AskRequestBody } from "./ask-request";
import { MAX_PAGE_SIZE, MAX_WAIT_SECONDS } from "./asks";
import {
  AskAnsweredEventSchema,
  AskNothingEventSchema,
  QuestionOpenedDataSchema,
  QuestionOpenedEventSchema,
  QuestionRemindedDataSchema,
  QuestionRemindedEventSchema,
} from "./webhook-events";
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

/** A schema with its `data` property pointing at a component: a webhook's envelope. */
function withDataRef(schema: Record<string, unknown>, name: string): Record<string, unknown> {
  return { ...schema, properties: { ...(schema.properties as Record<string, unknown>), data: ref(name) } };
}

const json = (schema: unknown) => ({ "application/json": { schema } });
const error = (description: string) => ({ description, content: json(ref("Error")) });
const retryAfter = { "Retry-After": { $ref: "#/components/headers/RetryAfter" } };

/** The refusals every operation can answer with, whatever its credentials. */
const UNAVAILABLE = {
  "503": { ...error("`unavailable`: Parley cannot reach its database just now (a restart, a failover). Try again after `Retry-After` seconds."), headers: retryAfter },
};

/** The refusals every operation an agent key makes can answer with. */
const COMMON_ERRORS = {
  "401": error("No API key, or one that is unknown or revoked."),
  "429": { ...error("`rate_limited`: over this key's rate; `Retry-After` says when to try again."), headers: retryAfter },
  ...UNAVAILABLE,
};

/** The agent's operations are made with an agent key. */
const AGENT = [{ agentKey: [] }];

const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "The ask's id." };
const questionIdParameter = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "The question's id." };

/** The person's operations are made with a personal token, not an agent key. */
const PERSONAL = [{ personalToken: [] }];

/** The refusals every operation of the person's side can answer with. */
const PERSONAL_ERRORS = {
  "401": error("No personal token, or one that is unknown or revoked (an agent key is not one)."),
  "429": { ...error("`rate_limited`: over this token's rate; `Retry-After` says when to try again."), headers: retryAfter },
  ...UNAVAILABLE,
};

/**
 * What `response_schema` accepts (lib/questions/schema-from-json-schema.ts judges it): the same words
 * as the README's, for callers who read only the document.
 */
export const RESPONSE_SCHEMA_SUBSET =
  "The answer's shape, as a JSON Schema (2020-12) object; without it the person gives one free-text answer and `answer` is a string. " +
  "Parley asks it as a form and judges the answer with it, so it takes a subset of JSON Schema and refuses (422 `unsupported_schema`, with the `path`) anything outside it, " +
  "rather than checking less than the schema says.\n\n" +
  "- The root: `{\"type\": \"object\", \"properties\": {…}, \"required\": […]}`; a property not in `required` is optional. One level of nested `\"type\": \"object\"`.\n" +
  "- Each property's `description` (else `title`) is its question.\n" +
  "- `string`: `minLength`, `maxLength`, `pattern`, `format` (`date`, `date-time`, `email`, `uri`), and `multiline` (Parley's: true asks in a box of several lines, false on one line).\n" +
  "- `number` and `integer`: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numbers, as in 2020-12), `multipleOf`. `boolean`.\n" +
  "- Choices: `enum` (all strings, all numbers or all booleans), `const`, or `oneOf`/`anyOf` of `{\"const\", \"title\"?, \"description\"?}` (each option's label and description).\n" +
  "- `array` of such strings, numbers or choices: `minItems`, `maxItems`, `uniqueItems`.\n" +
  "- `default` (checked against the property's own rules); null allowed as `\"type\": [X, \"null\"]` or `\"anyOf\": [schema, {\"type\": \"null\"}]`.\n" +
  "- `errorMessage` (a string): the words of every refusal of that property; on an object, of each property inside it without its own.\n" +
  "- Ignored: annotations (`$schema`, `$id`, `title`, `examples`, `readOnly`, `deprecated`…), `x-…` extensions, and `additionalProperties` (an answer holds the listed properties only).\n" +
  "- Refused: `$ref`, `allOf`, `not`, `if`, tuples, `patternProperties`, other formats, a keyword on a type it does not apply to, and any keyword Parley does not know (a misspelt `maxLenght`).\n" +
  "- A `pattern` is ECMA-262 (Unicode) and runs on a linear-time engine (RE2), never a backtracking one: look-arounds, back-references, flags inside the pattern and repetitions above 1000 are refused.\n" +
  "- Limits: 200 properties, 1000 choices per property, 1 MB of JSON. Lengths count UTF-16 code units; `date-time` needs seconds and `Z` or an offset; `uri` is what the WHATWG URL parser accepts.";

/** The AskRequest component, with `response_schema` described. */
function askRequestComponent(): Record<string, unknown> {
  const schema = component(AskRequestBody, "input");
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  return { ...schema, properties: { ...properties, response_schema: { ...properties.response_schema, description: RESPONSE_SCHEMA_SUBSET } } };
}

/** The Standard Webhooks headers every webhook carries. */
const WEBHOOK_HEADERS = [
  {
    name: "webhook-id",
    in: "header",
    required: true,
    schema: { type: "string" },
    description: "The event's id, the same on every attempt (a delivery cut short is sent again with it): drop repeats by it.",
  },
  { name: "webhook-timestamp", in: "header", required: true, schema: { type: "string", pattern: "^[0-9]+$" }, description: "When this attempt was signed, in unix seconds: refuse one far from now." },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    schema: { type: "string" },
    description: "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the bytes of the `whsec_` secret after its prefix; several are separated by spaces.",
  },
];

/** One webhook Parley sends: its body is the event component `event`. */
function webhook(operationId: string, summary: string, description: string, event: string) {
  return {
    post: {
      operationId,
      summary,
      description:
        `${description} Signed per Standard Webhooks: verify the signature on the raw body before parsing it (a \`standardwebhooks\` library does), ` +
        "then drop repeats by `webhook-id`.",
      // Parley authenticates itself to the receiver by the signature, not by a credential the receiver issued.
      security: [],
      parameters: WEBHOOK_HEADERS,
      requestBody: { required: true, content: json(ref(event)) },
      responses: {
        "200": {
          description: "Accepted: any 2xx. A 429 or 5xx (or a timeout) is tried again with backoff, honouring `Retry-After`; any other status, redirects included, is final.",
        },
      },
    },
  };
}

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
        "(`GET /asks/{id}?wait=N`) or receive it as a webhook (`ask.answered`, `ask.nothing`, signed per Standard Webhooks; see `webhooks`). " +
        "An agent authenticates with its API key (`Authorization: Bearer pk_…`, scheme `agentKey`); admins make keys on the API keys page. " +
        "A person answers their own questions (`/me`, `/questions`, an ask's `question_id`) with a personal token (`Bearer pt_…`, scheme `personalToken`) they make on their profile — the `parley` command does. " +
        `Errors are \`{ error: { code, message, path? } }\`; codes: ${Object.keys(ERROR_CODES).join(", ")}. ` +
        "429 and 503 carry `Retry-After` (seconds): wait that long, then try again.",
    },
    servers: [{ url: new URL("/api/v1", serverUrl).toString() }],
    paths: {
      "/asks": {
        post: {
          operationId: "createAsk",
          summary: "Ask a person",
          security: AGENT,
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
          security: AGENT,
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
          security: AGENT,
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
          security: AGENT,
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
          summary: "Close one of my questions with nothing: nobody is at the terminal, or I decline it",
          description:
            "The asker gets no answer, with the reason given: `non-interactive` (nobody is at the terminal) or `declined` (I cannot answer it; an optional `note` of up to 1,000 characters reaches the asker with it — its webhook, long-poll, MCP result and page). Declining ends the question for everyone it was put to; one another member has taken is theirs to decline. Saying the same again is answered alike.",
          security: PERSONAL,
          parameters: [questionIdParameter],
          requestBody: { required: true, content: json(ref("NothingRequest")) },
          responses: {
            "200": { description: "Closed with nothing.", content: json(ref("ClosedWithNothing")) },
            "400": error("Another reason, a note too long, or a malformed body."),
            "404": error("No such question, or it was not put to you."),
            "409": { description: "It was already answered (who and when), closed for another reason, or taken by another member.", content: json(ref("QuestionConflictError")) },
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
          responses: { "200": { description: "The OpenAPI 3.1 document.", content: json({ type: "object" }) }, ...UNAVAILABLE },
        },
      },
    },
    webhooks: {
      "ask.answered": webhook(
        "askAnswered",
        "An ask was answered",
        "Sent to the ask's `callback_url` (signed with its API key's webhook secret) and to `PARLEY_WEBHOOK_URL` when one is set. `data` is the ask as `GET /asks/{id}` returns it.",
        "AskAnsweredEvent",
      ),
      "ask.nothing": webhook(
        "askClosedWithNothing",
        "An ask closed with nothing",
        "Sent like `ask.answered` when nobody will answer: `data.reason` says why (away, expired, refused, cancelled…).",
        "AskNothingEvent",
      ),
      "question.opened": webhook(
        "questionOpened",
        "A question is waiting for a person",
        "Sent to `PARLEY_WEBHOOK_URL` for every question put to people, whoever asked it. Its texts are untrusted: an AI agent may have written them.",
        "QuestionOpenedEvent",
      ),
      "question.reminded": webhook(
        "questionReminded",
        "A person was reminded of a question",
        "Sent to `PARLEY_WEBHOOK_URL` for each reminder (an escalation step or an admin's), each with its own `webhook-id`.",
        "QuestionRemindedEvent",
      ),
    },
    components: {
      securitySchemes: {
        agentKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "pk_…",
          description: "An agent's API key (`pk_…`), made by an admin on the API keys page: it asks people (`/asks`) and sees only its own asks.",
        },
        personalToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "pt_…",
          description: "A person's personal token (`pt_…`), made on their profile (the `parley` command makes one): it answers that person's own questions (`/me`, `/questions`).",
        },
      },
      headers: {
        RetryAfter: { description: "Seconds to wait before trying again.", required: true, schema: { type: "integer", minimum: 1 } },
      },
      schemas: {
        AskRequest: askRequestComponent(),
        Ask: {
          description: "An ask, one shape per `status`: `open` (waiting for the person), `answered` (see `answer`), `nothing` (nobody answered, see `reason`).",
          oneOf: [ref("OpenAsk"), ref("AnsweredAsk"), ref("NothingAsk")],
          discriminator: {
            propertyName: "status",
            mapping: { open: "#/components/schemas/OpenAsk", answered: "#/components/schemas/AnsweredAsk", nothing: "#/components/schemas/NothingAsk" },
          },
        },
        OpenAsk: component(OpenAskSchema),
        AnsweredAsk: component(AnsweredAskSchema),
        NothingAsk: component(NothingAskSchema),
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
        AskAnsweredEvent: withDataRef(component(AskAnsweredEventSchema), "AnsweredAsk"),
        AskNothingEvent: withDataRef(component(AskNothingEventSchema), "NothingAsk"),
        QuestionOpenedData: component(QuestionOpenedDataSchema),
        QuestionRemindedData: component(QuestionRemindedDataSchema),
        QuestionOpenedEvent: withDataRef(component(QuestionOpenedEventSchema), "QuestionOpenedData"),
        QuestionRemindedEvent: withDataRef(component(QuestionRemindedEventSchema), "QuestionRemindedData"),
      },
    },
  };
}
