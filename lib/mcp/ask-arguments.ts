import { z } from "zod";

/** The longest question `ask_person` takes: the HTTP API's longest body. */
export const MAX_QUESTION_CHARACTERS = 10_000;
/** The longest question asked as a title alone; a longer one is a short title and the whole question as the body. */
const MAX_TITLE_CHARACTERS = 300;
/** Most options one `ask_person` may offer. */
export const MAX_OPTIONS = 100;
/** The field an `options` ask puts the chosen option in. */
export const CHOICE_FIELD = "choice";
/** The field an `options` ask puts the person's own words in, when they have any. */
export const COMMENT_FIELD = "comment";

/** One option as the caller gives it: its value, or the value with the words shown for it. */
const Option = z.union([
  z.string().trim().min(1, "An option is not empty.").max(200, "An option is at most 200 characters."),
  z.strictObject({
    value: z.string().trim().min(1, "An option's value is not empty.").max(200, "An option's value is at most 200 characters."),
    label: z.string().trim().min(1).max(200).optional().describe("What the person reads; the value when left out."),
    description: z.string().max(1000).optional().describe("A line under the label."),
  }),
]);

/** `ask_person`'s arguments (its input schema, published as JSON Schema). */
export const AskPersonArguments = z.object({
  to: z
    .union([z.string().min(1).max(254), z.array(z.string().min(1).max(254)).min(1).max(50), z.strictObject({ group: z.string().min(1).max(100) })], {
      // A union's own message is "Invalid input"; the model needs to be told what to send.
      error: 'Give to: the email of the person to ask (see list_people), a list of emails, or { "group": "<name>" }.',
    })
    .describe('The email of the person to ask (see list_people), several emails (any one of them may answer), or { "group": "<name>" } to ask a team: any member may take it.'),
  question: z
    .string()
    .trim()
    .min(1, "question is empty: write the question the person should answer.")
    .max(MAX_QUESTION_CHARACTERS, `question is at most ${MAX_QUESTION_CHARACTERS} characters.`)
    .describe("The question, in full, as the person should read it. Give the context they need to answer without asking you back."),
  options: z
    .array(Option)
    .min(2, "Give at least two options, or none for a free-text answer.")
    .max(MAX_OPTIONS, `At most ${MAX_OPTIONS} options.`)
    .optional()
    .describe(
      `Choices to offer: strings, or { value, label, description }. The person picks one and may add a comment; the answer is then { "${CHOICE_FIELD}": <value>, "${COMMENT_FIELD}"?: <text> }. Leave out for a free-text answer (a string).`,
    ),
  response_schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "A JSON Schema (type object, flat properties: string, number, integer, boolean, enum, arrays of enums) for a typed answer; the answer is then an object of that shape. Not with options.",
    ),
  due_in_seconds: z.number().int().min(1).max(365 * 24 * 60 * 60).optional().describe("When the ask should close unanswered (status nothing, reason expired)."),
  escalation: z
    .array(
      z.strictObject({
        after_percent: z.number().gt(0).lt(100).describe("When, as a percentage of the time to the deadline (due_in_seconds, which escalation needs)."),
        action: z.enum(["remind", "add_group"]).describe("remind: remind whoever it is for; add_group: the group's members may answer too."),
        group: z.string().min(1).max(100).optional().describe("The group to add (add_group only; see list_people)."),
      }),
    )
    .min(1)
    .max(10)
    .optional()
    .describe('Escalate while nobody answers, each step once: e.g. [{ "after_percent": 50, "action": "remind" }, { "after_percent": 80, "action": "add_group", "group": "finance" }].'),
  idempotency_key: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("Any string unique to this question: calling again with the same key and arguments returns the same ask instead of asking twice."),
});
export type AskPersonArguments = z.output<typeof AskPersonArguments>;

/** A response schema offering `options` as one choice, with an optional comment so the person can say what the options do not. */
export function optionsSchema(options: AskPersonArguments["options"] & {}): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      [CHOICE_FIELD]: {
        title: "Your answer",
        oneOf: options.map((option) =>
          typeof option === "string"
            ? { const: option, title: option }
            : { const: option.value, title: option.label ?? option.value, ...(option.description ? { description: option.description } : {}) },
        ),
      },
      [COMMENT_FIELD]: { type: "string", title: "Anything to add? (optional)", maxLength: 10_000 },
    },
    required: [CHOICE_FIELD],
  };
}

/**
 * The HTTP API's ask request for `ask_person`'s arguments: a short question is the title; a long or
 * multi-line one is its first line as the title and the whole question as the body, so nothing the
 * model wrote is cut.
 */
export function askRequestOf(args: AskPersonArguments): Record<string, unknown> {
  const question = args.question;
  const firstLine = question.split("\n", 1)[0]!.trim();
  const short = question.length <= MAX_TITLE_CHARACTERS && !question.includes("\n");
  const title = short ? question : firstLine.length <= MAX_TITLE_CHARACTERS ? firstLine : `${firstLine.slice(0, MAX_TITLE_CHARACTERS - 1)}…`;
  return {
    to: args.to,
    title,
    ...(short ? {} : { body: question }),
    ...(args.options ? { response_schema: optionsSchema(args.options) } : args.response_schema ? { response_schema: args.response_schema } : {}),
    ...(args.due_in_seconds !== undefined ? { due_in_seconds: args.due_in_seconds } : {}),
    ...(args.escalation ? { escalation: args.escalation } : {}),
  };
}

/** Where a refusal of the API request is, in `ask_person`'s arguments. */
export function argumentPath(path: string | undefined, args: Pick<AskPersonArguments, "options">): string | undefined {
  if (path === undefined) return undefined;
  if (path === "title" || path === "body") return "question";
  if (path === "Idempotency-Key") return "idempotency_key";
  if (path.startsWith("response_schema") && args.options) return "options";
  return path;
}
