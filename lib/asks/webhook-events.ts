import { z } from "zod";
import { AnsweredAskSchema, NothingAskSchema } from "./api-schemas";

/*
 * The webhooks Parley sends, as zod schemas the OpenAPI document publishes under `webhooks`: each
 * body is the Standard Webhooks envelope `{ type, timestamp, data }`. The senders build them
 * (lib/asks/ask-webhooks.ts, lib/notifiers/webhook-notifier.ts), and a test judges what they send by
 * these (every-webhook-parley-sends-matches-its-schema-in-the-openapi-document.test.ts).
 */

const dateTime = z.iso.datetime({ offset: true });

/** When the event happened, not when this attempt was sent: the same on every retry. */
const EventTimestamp = dateTime.describe("When the event happened (not when this attempt was sent): the same on every retry.");

/** A person a question is put to. */
const QuestionRecipientSchema = z.object({ user_id: z.string(), name: z.string(), email: z.email() });

/** The `data` of `question.opened`: a question waiting for a person. Every text in it is untrusted (an AI agent may have written it). */
export const QuestionOpenedDataSchema = z.object({
  id: z.string().describe("The question's id (an ask's `question_id`)."),
  url: z.url().describe("The question's page, where the person answers it."),
  question: z.string().describe("What the person is asked, in the asker's words."),
  asked_by: z.string().describe("Who asks: an agent, a flow, or an API key's name."),
  subject: z.string().describe("What the question is about."),
  recipients: z.array(QuestionRecipientSchema).describe("Who may answer it."),
  opened_at: dateTime,
  due_at: dateTime.nullable().describe("Null when the question has no deadline."),
});

/** The `data` of `question.reminded`: the question again, with when and by whom it was reminded. */
export const QuestionRemindedDataSchema = QuestionOpenedDataSchema.extend({
  reminded_at: dateTime,
  reminded_by: z.string().optional().describe("The admin who sent the reminder, when known."),
});

/** A Standard Webhooks body of one `type`. */
function envelope<Type extends string, Data extends z.ZodType>(type: Type, data: Data) {
  return z.object({ type: z.literal(type), timestamp: EventTimestamp, data });
}

/** `ask.answered`: an API ask was answered; `data` is the ask as `GET /asks/{id}` returns it. */
export const AskAnsweredEventSchema = envelope("ask.answered", AnsweredAskSchema);
/** `ask.nothing`: an API ask closed with nothing; `data.reason` says why. */
export const AskNothingEventSchema = envelope("ask.nothing", NothingAskSchema);
/** `question.opened`: a question is waiting for a person. */
export const QuestionOpenedEventSchema = envelope("question.opened", QuestionOpenedDataSchema);
/** `question.reminded`: a person was reminded of a question. */
export const QuestionRemindedEventSchema = envelope("question.reminded", QuestionRemindedDataSchema);
