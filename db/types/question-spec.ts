/**
 * The serialisable question spec: what a flow's zod schema asks of a person, as plain JSON. It is
 * stored with the question record and rendered by the browser form and the terminal; the schema
 * itself stays in code and is the only judge of the answer.
 *
 * Its shape lives in db/ because the question record stores it (db/ imports nothing from lib/);
 * lib/questions/question-spec.ts re-exports it for everyone else.
 */

/** Version of the spec's shape, stored with it so a later reader can tell old records apart. */
export const QUESTION_SPEC_VERSION = 1;

/** How a field is asked: the widget in a browser, the prompt at a terminal, the parser for its text. */
export type FieldKind = "text" | "number" | "integer" | "enum" | "multi-choice" | "boolean" | "list" | "date";

/** How each item of a `list` field is read from its comma-separated line. */
export type ListItemKind = "text" | "number" | "integer" | "date";

/** A value an option stands for; enums and literals in a question spec are always one of these. */
export type OptionValue = string | number | boolean;

/** A plain JSON value, as a default is stored in the spec. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One answer offered for an `enum` or `multi-choice` field. */
export interface QuestionOption {
  /** The value the schema takes. */
  value: OptionValue;
  /** What the person reads (the option's `.meta({ title })`, else a readable form of the value). */
  label: string;
  /** The option's `.meta({ description })`, where it was given. */
  description?: string;
}

/**
 * Constraints the surfaces may hint at (`maxlength`, `min`/`max`/`step`, `pattern`, "(1–10)"). They
 * are only hints: the schema decides.
 */
export interface FieldHints {
  /** Fewest characters (text). */
  minLength?: number;
  /** Most characters (text). */
  maxLength?: number;
  /** Lowest value: a number, or `YYYY-MM-DD` for a date. */
  min?: number | string;
  /** Highest value: a number, or `YYYY-MM-DD` for a date. */
  max?: number | string;
  /** The value must be strictly above `min` (a browser's `min` is inclusive). */
  minExclusive?: boolean;
  /** The value must be strictly below `max`. */
  maxExclusive?: boolean;
  /** A number must be a multiple of this (1 for integers unless the schema says otherwise). */
  step?: number;
  /** A regular expression (source only, no flags) the whole text must match. */
  pattern?: string;
  /** A named string format the schema checks (`email`, `url`, `uuid`…), for `type=` and examples. */
  format?: string;
  /** Fewest items (list, multi-choice). */
  minItems?: number;
  /** Most items (list, multi-choice). */
  maxItems?: number;
  /**
   * The schema's own say on whether a text is asked in a box of several lines (`true`) or on one line
   * (`false`): zod's `.meta({ multiline })`, JSON Schema's `"multiline"`. Absent, the other hints decide.
   */
  multiline?: boolean;
  /**
   * The schema's say that a choice is found by typing part of it rather than picked from a list
   * (`.meta({ searchable: true })`: e.g. a person among everyone in the organisation). The browser
   * shows a box that narrows the options as one types; without JavaScript, and at a terminal, they are listed.
   */
  searchable?: boolean;
}

/** One question: a leaf field of the schema, by its full dotted path. */
export interface QuestionField {
  /** Full path, nested names joined with dots (`address.city`); also the form input's name. */
  path: string;
  /** The field's own name, the last segment of the path. */
  name: string;
  /** The question put to the person: the field's description, else a readable form of its name. */
  question: string;
  /** How the field is asked and how its text is read. */
  kind: FieldKind;
  /** For `list` fields, how each item is read. */
  itemKind?: ListItemKind;
  /**
   * For `date` fields (and `list` fields of dates), whether the schema takes an ISO `YYYY-MM-DD`
   * string (`z.iso.date()`) or a `Date` (`z.date()`, built at UTC midnight).
   */
  dateValue?: "string" | "date";
  /** The answers offered, for `enum` and `multi-choice` fields, in the schema's order. */
  options?: QuestionOption[];
  /** The person may skip it: the value then omits it. */
  optional: boolean;
  /** The person may answer "none": the value is then `null`. */
  nullable: boolean;
  /** The schema has a default, taken when the field is left empty or answered with `-`. */
  hasDefault: boolean;
  /** The default as plain JSON (dates as `YYYY-MM-DD`), when `hasDefault`. */
  default?: JsonValue;
  /** The path of the nested object the field sits in (see {@link QuestionSpec.groups}); absent at the top. */
  group?: string;
  /** Constraints the surfaces may hint at. */
  hints: FieldHints;
}

/** A nested object of the schema: a fieldset in a browser, a heading at a terminal. */
export interface QuestionGroup {
  /** Path of the nested object (`address`). */
  path: string;
  /** The heading: the nested object's description, else a readable form of its name. */
  heading: string;
  /** The group of the object it sits in, when nested deeper. */
  group?: string;
  /** The whole object may be left out: when every field in it is left empty, it is omitted. */
  optional: boolean;
}

/** The whole questionnaire derived from one zod object schema. */
export interface QuestionSpec {
  /** {@link QUESTION_SPEC_VERSION} at the time it was derived. */
  version: typeof QUESTION_SPEC_VERSION;
  /** The questionnaire's title, when one was given (option, or the schema's `.meta({ title })`). */
  title?: string;
  /** The questionnaire's description (option, or the schema's description). */
  description?: string;
  /** One entry per leaf field, in the schema's order. */
  fields: QuestionField[];
  /** The nested objects, in the schema's order. */
  groups: QuestionGroup[];
  /**
   * The schema has object-level checks (a `.refine` over several fields). zod runs them only once
   * every field passes, so a surface can say "more checks after these" while fields are refused.
   */
  crossFieldChecks: boolean;
}
