import { z } from "zod";
import { NOTHING_REASONS } from "@/db/schema";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors";

/** What every ask has, whatever its status. */
const AskBase = z.object({
  id: z.uuid().describe("The ask's id."),
  title: z.string(),
  body: z.string().nullable(),
  context: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
  to: z.union([z.string(), z.array(z.string()), z.object({ group: z.string() })]).describe("`to` as it was given."),
  url: z.url().describe("The question's page, where the person answers it."),
  question_id: z.uuid().describe("The question's id: the person's side of the API names it (`/questions/{id}`), and so do the `question.opened` and `question.reminded` webhooks."),
  due_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  attempts: z.object({ allowed: z.int(), refused: z.int() }).describe("Refused submissions allowed, and spent so far."),
  waited_seconds: z.int().describe("From the ask to its answer or its closing; until now while it is open."),
});

/** Who answered an ask. */
const AnsweredBy = z.object({ email: z.string(), name: z.string() });

/** An ask waiting for the person: nothing about its end is set. */
export const OpenAskSchema = AskBase.extend({
  status: z.literal("open").describe("Waiting for the person."),
  answer: z.null(),
  answered_by: z.null(),
  answered_at: z.null(),
  reason: z.null(),
  declined_by: z.null(),
  note: z.null(),
});

/** What a person answered: an object of the ask's `response_schema`, or their words for a free-text ask. */
export const AskAnswerSchema = z
  .union([z.record(z.string(), z.unknown()), z.string()])
  .describe("The value the response schema accepted: an object of its properties, or a string for a free-text ask (one with no `response_schema`).");

/** An ask the person answered: `answer` is set. */
export const AnsweredAskSchema = AskBase.extend({
  status: z.literal("answered").describe("Answered: see `answer`."),
  answer: AskAnswerSchema,
  answered_by: AnsweredBy.nullable(),
  answered_at: z.iso.datetime().describe("When it was answered."),
  reason: z.null(),
  declined_by: z.null(),
  note: z.null(),
});

/** An ask closed with nothing: nobody will answer it, and `reason` says why. */
export const NothingAskSchema = AskBase.extend({
  status: z.literal("nothing").describe("Nobody answered: see `reason`."),
  answer: z.null(),
  answered_by: z.null(),
  answered_at: z.iso.datetime().nullable().describe("When it closed."),
  reason: z.enum(NOTHING_REASONS).describe("Why nobody answered: `declined` when the person said they cannot answer it (see `declined_by` and `note`)."),
  declined_by: AnsweredBy.nullable().describe("Who declined it, for reason `declined`; otherwise null."),
  note: z.string().nullable().describe("What the person who declined wrote for the asker, when they wrote something; otherwise null."),
});

/** An ask as the API returns it (the contract the OpenAPI document publishes): one shape per `status`. */
export const AskViewSchema = z.discriminatedUnion("status", [OpenAskSchema, AnsweredAskSchema, NothingAskSchema]);
export type AskView = z.output<typeof AskViewSchema>;
export type OpenAskView = z.output<typeof OpenAskSchema>;
export type AnsweredAskView = z.output<typeof AnsweredAskSchema>;
export type NothingAskView = z.output<typeof NothingAskSchema>;

/** A page of asks. */
export const AskPageSchema = z.object({ data: z.array(AskViewSchema), next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last.") });
export type AskPage = z.output<typeof AskPageSchema>;

/** Every refusal: one shape, a stable code, where the problem is. */
export const ApiErrorSchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).describe("Stable: branch on it, never on the message."),
    message: z.string().describe("What went wrong, in words a person can act on."),
    path: z.string().optional().describe("Where in the request, when it is in one place (`to[1]`, `response_schema.properties.x`)."),
  }),
});
