import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { ApiAskRecord } from "@/db/queries/api-asks";
import { askEvent } from "@/lib/asks/ask-webhooks";
import { askView } from "@/lib/asks/ask-view";
import { openApiDocument } from "@/lib/asks/openapi";
import { storedEventMessage } from "@/lib/notifications/outbox";
import { questionNoticeMessage, standardWebhookBody, type QuestionNotice } from "@/lib/notifiers";

type Json = Record<string, unknown>;

const document = openApiDocument("https://parley.example.org") as {
  webhooks?: Record<string, { post: { parameters: { name: string; in: string; required: boolean }[]; requestBody: { content: { "application/json": { schema: unknown } } } } }>;
  components: { schemas: Json };
};

/** A schema with every `$ref` into the components written out in place. */
function inline(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inline);
  if (!schema || typeof schema !== "object") return schema;
  const target = (schema as { $ref?: string }).$ref;
  if (target) return inline(document.components.schemas[target.replace("#/components/schemas/", "")]);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value)]));
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** The body Parley sends for an event, judged by the schema the document gives its type. */
function judged(body: string): { type: string; errors: unknown } {
  const event = JSON.parse(body) as { type: string };
  const webhook = document.webhooks?.[event.type];
  if (!webhook) return { type: event.type, errors: `no webhook ${event.type} in the document` };
  const validate = ajv.compile(inline(webhook.post.requestBody.content["application/json"].schema) as object);
  return { type: event.type, errors: validate(event) ? null : validate.errors };
}

const ASK_ID = "0193a000-0000-7000-8000-00000000000a";
const QUESTION_ID = "0193a000-0000-7000-8000-00000000000b";
const record = (overrides: Partial<ApiAskRecord>): ApiAskRecord => ({
  id: ASK_ID,
  apiKeyId: "0193a000-0000-7000-8000-00000000000c",
  apiKeyName: "Deploy bot",
  idempotencyKey: null,
  requestHash: "0".repeat(64),
  questionId: QUESTION_ID,
  title: "Deploy?",
  body: null,
  context: { build: 42 },
  freeText: false,
  to: ["sam@parley.test", "ada@parley.test"],
  dueAt: new Date("2026-12-05T09:00:00Z"),
  attempts: 3,
  callbackUrl: "https://receiver.parley.test/hook",
  metadata: { ticket: "OPS-1" },
  createdAt: new Date("2026-12-04T09:00:00Z"),
  questionStatus: "open",
  reason: null,
  answer: null,
  answeredAt: null,
  answeredBy: null,
  declinedBy: null,
  declineNote: null,
  attemptsUsed: 0,
  ...overrides,
});
const NOW = new Date("2026-12-04T10:00:00Z");
const notice = { id: QUESTION_ID, url: `https://parley.example.org/questions/${QUESTION_ID}`, question: "Deploy?", askedBy: "Deploy bot", subject: "Build 42", recipients: [{ userId: "u1", name: "Sam Rivera", email: "sam@parley.test" }], openedAt: "2026-12-04T09:00:00.000Z" };

const SENT: { name: string; body: () => string }[] = [
  {
    name: "ask.answered with an object",
    body: () => standardWebhookBody(storedEventMessage(askEvent(askView(record({ questionStatus: "answered", answer: { go: true }, answeredAt: NOW, answeredBy: { email: "sam@parley.test", name: "Sam Rivera" } }), "https://parley.example.org", NOW))!.event)),
  },
  {
    name: "ask.answered with free text",
    body: () => standardWebhookBody(storedEventMessage(askEvent(askView(record({ freeText: true, questionStatus: "answered", answer: { answer: "Ship it." }, answeredAt: NOW, answeredBy: null }), "https://parley.example.org", NOW))!.event)),
  },
  {
    name: "ask.nothing declined with a note",
    body: () =>
      standardWebhookBody(
        storedEventMessage(
          askEvent(
            askView(record({ questionStatus: "nothing", reason: "declined", answeredAt: NOW, declinedBy: { email: "sam@parley.test", name: "Sam Rivera" }, declineNote: "Not my area: ask finance." }), "https://parley.example.org", NOW),
          )!.event,
        ),
      ),
  },
  { name: "ask.nothing", body: () => standardWebhookBody(storedEventMessage(askEvent(askView(record({ questionStatus: "nothing", reason: "expired", answeredAt: NOW }), "https://parley.example.org", NOW))!.event)) },
  { name: "question.opened", body: () => standardWebhookBody(questionNoticeMessage({ ...notice, kind: "question-opened", dueAt: null } satisfies QuestionNotice)) },
  {
    name: "question.reminded",
    body: () => standardWebhookBody(questionNoticeMessage({ ...notice, kind: "reminder", dueAt: "2026-12-05T09:00:00.000Z", remindedAt: "2026-12-04T12:00:00.000Z", remindedBy: "Ada" } satisfies QuestionNotice)),
  },
];

describe("the OpenAPI document's webhooks", () => {
  it.each(SENT)("describe $name as Parley sends it", ({ body }) => {
    expect(judged(body()).errors).toBeNull();
  });

  it("name the Standard Webhooks headers on every event", () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual(["ask.answered", "ask.nothing", "question.opened", "question.reminded"]);
    for (const webhook of Object.values(document.webhooks ?? {})) {
      expect(webhook.post.parameters.filter((parameter) => parameter.in === "header" && parameter.required).map((parameter) => parameter.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    }
  });
});
