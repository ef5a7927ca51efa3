import { z } from "zod";
import { DECLINE_NOTE_MAX_LENGTH, NOTHING_REASONS, ROLES } from "@/db/schema";
import { FIELD_KINDS } from "@/lib/questions";

/*
 * The person's side of the HTTP API (a personal token answers its owner's questions): what it takes
 * and what it gives, as zod schemas the handlers judge requests with and the OpenAPI document
 * publishes. snake_case, like the rest of the API.
 */

/** Who the token belongs to: `GET /me`. */
export const MeViewSchema = z.object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    roles: z.array(z.enum(ROLES)),
  });
export type MeView = z.output<typeof MeViewSchema>;

const OptionValue = z.union([z.string(), z.number(), z.boolean()]);

/** One question of a questionnaire, as the terminal and the browser form ask it (lib/questions' `QuestionField`). */
const QuestionFieldSchema = z.object({
  path: z.string().describe("The field's full path (`address.city`): the key its text is sent under."),
  name: z.string(),
  question: z.string().describe("What the person is asked."),
  kind: z.enum(FIELD_KINDS as [string, ...string[]]).describe("How it is asked and how its text is read."),
  itemKind: z.enum(["text", "number", "integer", "date"]).optional().describe("For a list: how each comma-separated item is read."),
  dateValue: z.enum(["string", "date"]).optional(),
  options: z
    .array(z.object({ value: OptionValue, label: z.string(), description: z.string().optional() }))
    .optional()
    .describe(
      "The answers offered (enum, multi-choice): send the number, the label or the value. On a text question (an agent's ask that offered options) they are suggestions: the number or the word picks one, and any other text is the person's own answer, taken as written.",
    ),
  optional: z.boolean().describe("May be left empty (left out of the value)."),
  nullable: z.boolean().describe("May be answered `none` (null)."),
  hasDefault: z.boolean().describe("Left empty or answered `-`, it takes `default`."),
  default: z.unknown().optional(),
  group: z.string().optional(),
  hints: z.record(z.string(), z.unknown()).describe("Constraints a surface may hint at (the schema decides): minLength, maxLength, min, max, step, pattern, format, minItems, maxItems, and multiline (a text asked in several lines when true, on one line when false)."),
});

/** What a question asks, field by field (lib/questions' `QuestionSpec`). */
export const QuestionSpecSchema = z.object({
    version: z.literal(1),
    title: z.string().optional(),
    description: z.string().optional(),
    fields: z.array(QuestionFieldSchema),
    groups: z.array(z.object({ path: z.string(), heading: z.string(), group: z.string().optional(), optional: z.boolean() })),
    crossFieldChecks: z.boolean().describe("The schema checks several answers together once every field passes."),
  });

/** A question in the person's inbox: `GET /questions`. */
export const QuestionSummarySchema = z.object({
    id: z.uuid(),
    title: z.string().describe("The question in the asker's own words."),
    asked_by: z.object({ kind: z.enum(["agent", "workflow", "api"]), name: z.string() }).describe("An agent, a flow, or a caller of the API (by its key's name)."),
    subject: z.object({ title: z.string(), summary: z.string().nullable() }).nullable().describe("What the question is about."),
    url: z.url().describe("The question's page, where it can be answered in a browser."),
    due_at: z.iso.datetime().nullable(),
    opened_at: z.iso.datetime(),
    attempts: z.object({ allowed: z.int(), refused: z.int() }).describe("Refused submissions allowed, and spent so far."),
    spec: QuestionSpecSchema,
  });
export type QuestionSummaryView = z.output<typeof QuestionSummarySchema>;

/** A page of the person's open questions. */
export const QuestionPageSchema = z.object({
    data: z.array(QuestionSummarySchema),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last."),
  });
export type QuestionPageView = z.output<typeof QuestionPageSchema>;

/** One of the person's questions, open or closed: `GET /questions/{id}`. */
export const QuestionDetailSchema = QuestionSummarySchema.extend({
  status: z.enum(["open", "answered", "nothing"]).describe("open: it takes an answer; answered: see `answered_by`; nothing: it closed unanswered, see `reason`."),
  reason: z.enum(NOTHING_REASONS).nullable().describe("Why it closed without an answer."),
  asked_at: z.iso.datetime(),
  answered_by: z.object({ name: z.string().nullable() }).nullable().describe("Who answered it."),
  answered_at: z.iso.datetime().nullable(),
  declined_by: z.object({ name: z.string().nullable() }).nullable().describe("Who declined it (reason `declined`)."),
  note: z.string().nullable().describe("What the person who declined it wrote for the asker, when they wrote something."),
  context: z
    .object({ title: z.string(), facts: z.array(z.object({ label: z.string(), value: z.string() })) })
    .nullable()
    .describe("The facts shown beside the question."),
});
export type QuestionDetailView = z.output<typeof QuestionDetailSchema>;

/**
 * The body of `POST /questions/{id}/answer`: each field's text as a person would type it at the
 * terminal (a dash for the default, y/n, commas between items, a number or a word for a choice,
 * `none` for no value). A field left out is left empty.
 */
export const AnswerRequestBody = z
  .strictObject({
    answers: z.record(
      z.string().max(500, "A field path is at most 500 characters."),
      z.string({ error: "Send each field's text as a string, as typed (leave a field out to leave it empty)." }),
      { error: "an object of each field's text by its path, like { \"decision\": \"1\" }." },
    ),
  });

/** An answer taken. */
export const AnsweredSchema = z.object({
    id: z.uuid(),
    status: z.literal("answered"),
    value: z.unknown().describe("The answer as the asker's schema typed it."),
  });
export type AnsweredView = z.output<typeof AnsweredSchema>;

/**
 * The body of `POST /questions/{id}/nothing`: nobody is at the terminal (`non-interactive`), or the
 * person cannot answer it (`declined`, with an optional note for whoever asked).
 */
export const NothingRequestBody = z.discriminatedUnion(
  "reason",
  [
    z.strictObject({ reason: z.literal("non-interactive") }),
    z.strictObject({
      reason: z.literal("declined"),
      note: z
        .string({ error: "a note is text for whoever asked." })
        .max(DECLINE_NOTE_MAX_LENGTH, `keep the note to ${DECLINE_NOTE_MAX_LENGTH.toLocaleString("en")} characters.`)
        .nullable()
        .optional()
        .describe("What to tell whoever asked (why, or who could answer instead); blank is none."),
    }),
  ],
  { error: "the reason is non-interactive (nobody is at the terminal) or declined (you cannot answer it)." },
);

/** A question closed with nothing; `note` is what the person who declined it wrote, if anything. */
export const ClosedWithNothingSchema = z.object({ id: z.uuid(), status: z.literal("nothing"), reason: z.enum(NOTHING_REASONS), note: z.string().nullable() });
export type ClosedWithNothingView = z.output<typeof ClosedWithNothingSchema>;

/** The error body of a refused answer (422 `answer_refused`) and of the last refused one (409 `attempts_exhausted`). */
export const AnswerRefusedErrorSchema = z.object({
    error: z.object({
      code: z.enum(["answer_refused", "attempts_exhausted"]),
      message: z.string(),
      fields: z.record(z.string(), z.array(z.string())).describe("The schema's own words, by field path."),
      form: z.array(z.string()).describe("What was said of the answer as a whole."),
      more_checks_after_these: z.boolean().describe("Checks across several answers run once every field passes."),
      attempt: z.string().optional().describe("The attempt about to be made: `attempt 2 of 3` (422 only)."),
      attempts_left: z.int().describe("Submissions still allowed; 0 once the question closed."),
      reason: z.literal("refused").optional().describe("Why it closed (409 only)."),
    }),
  });

/** The error body when the question is no longer open: someone answered it (who, when), or it closed with nothing (why). */
export const QuestionConflictErrorSchema = z.object({
    error: z.object({
      code: z.enum(["already_answered", "question_closed", "conflict"]),
      message: z.string(),
      answered_by: z.object({ name: z.string().nullable() }).nullable().optional(),
      answered_at: z.iso.datetime().nullable().optional(),
      reason: z.enum(NOTHING_REASONS).nullable().optional(),
    }),
  });
