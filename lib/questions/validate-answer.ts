import { z } from "zod";

import { type FormAnswer, rawFromFormAnswer } from "./form-answer";
import type { QuestionSpec } from "./question-spec";
import { type RawAnswer, rawFromTextAnswers } from "./raw-answer";
import { specFromSchema } from "./spec-from-schema";
import { overlongTexts } from "./text-limit";

/**
 * What a surface can say while fields are refused and the schema also has checks across several
 * answers: zod runs those only once every field passes.
 */
export const MORE_CHECKS_MESSAGE = "There are more checks after these.";

/** One refusal, as the schema worded it. */
export interface Refusal {
  /** The full path of the issue, indexes included (`attendees.1`); `""` for the whole answer. */
  path: string;
  /** The question it belongs to (the longest field path that starts it), if any. */
  field?: string;
  /** The message, verbatim. */
  message: string;
}

/**
 * The verdict of the flow's schema on an answer: the typed value, or its refusals — each on the
 * field it was refused for (by full path), the rest as form-level messages.
 */
export type AnswerValidation<Value> =
  | { ok: true; value: Value }
  | {
      ok: false;
      /** Messages by field path (`address.city`), in the schema's own words. */
      fieldErrors: Record<string, string[]>;
      /** Messages tied to no field: cross-field checks without a path, unknown keys, the whole object. */
      formErrors: string[];
      /** Every refusal with its full path, for a surface that shows which list item was refused. */
      refusals: Refusal[];
      /**
       * Object-level checks have not run yet because fields were refused; say
       * {@link MORE_CHECKS_MESSAGE} so the person is not surprised by them next time.
       */
      moreChecksAfterThese: boolean;
    };

/** What {@link validateAnswer} may be given beyond the schema and the raw answer. */
export interface ValidateAnswerOptions {
  /** The spec derived from this schema; derived (and cached) when not given. */
  spec?: QuestionSpec;
  /** Plain messages for fields whose text could not be read; they replace the schema's for that field. */
  parseErrors?: Readonly<Record<string, readonly string[]>>;
}

/** What a required question left empty is told, in place of zod's "expected string, received undefined". */
export const MISSING_ANSWER_MESSAGE = "This question needs an answer.";

/**
 * A per-parse error map: in zod 4 it ranks below the schema's own messages, so a custom message
 * still shows verbatim and only zod's generic wording for a missing answer is replaced — "expected
 * string", or "Invalid input" for a choice among titled options (a union of literals) left unchosen.
 */
const kindMessages: z.core.$ZodErrorMap = (issue) =>
  issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union" || issue.code === "invalid_value") ? MISSING_ANSWER_MESSAGE : undefined;

const specs = new WeakMap<z.core.$ZodType, QuestionSpec>();

/** The spec of a schema, derived once per schema object. */
function specOf(schema: z.core.$ZodType): QuestionSpec {
  let spec = specs.get(schema);
  if (spec === undefined) {
    spec = specFromSchema(schema);
    specs.set(schema, spec);
  }
  return spec;
}

/**
 * Judge a raw answer with the flow's own schema (server-side; the browser's checks are only
 * hints). Every zod issue goes to its field by its full path — not `flattenError`, which keeps
 * only the first segment — with its message verbatim; an issue with no path, or a path that is no
 * field, is a form-level message. Unreadable text (`parseErrors`) is reported on its field in place
 * of what the schema said about the resulting gap. Async refinements are awaited.
 */
export async function validateAnswer<Schema extends z.core.$ZodType>(
  schema: Schema,
  raw: unknown,
  options: ValidateAnswerOptions = {},
): Promise<AnswerValidation<z.output<Schema>>> {
  const spec = options.spec ?? specOf(schema);
  // A text past the default limit is refused on its field like unreadable text, whatever the schema says of the rest.
  const parseErrors = { ...overlongTexts(spec, raw), ...(options.parseErrors ?? {}) };
  const result = await z.safeParseAsync(schema, raw, { error: kindMessages });
  const parseErrorPaths = Object.keys(parseErrors).filter((path) => (parseErrors[path] ?? []).length > 0);
  if (result.success && parseErrorPaths.length === 0) return { ok: true, value: result.data };

  const fieldPaths = new Set(spec.fields.map((field) => field.path));
  const fieldErrors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const formErrors: string[] = [];
  const refusals: Refusal[] = [];
  for (const path of parseErrorPaths) {
    for (const message of parseErrors[path] ?? []) {
      (fieldErrors[path] ??= []).push(message);
      refusals.push(fieldPaths.has(path) ? { path, field: path, message } : { path, message });
    }
  }
  for (const issue of result.success ? [] : result.error.issues) {
    const segments = issue.path.map((segment) => (typeof segment === "symbol" ? segment.toString() : String(segment)));
    const path = segments.join(".");
    const field = fieldOf(segments, fieldPaths);
    // Unreadable text was already explained; the schema's "expected number, received undefined" is noise.
    if (field !== undefined && parseErrorPaths.includes(field)) continue;
    refusals.push(field === undefined ? { path, message: issue.message } : { path, field, message: issue.message });
    if (field === undefined) formErrors.push(issue.message);
    else (fieldErrors[field] ??= []).push(issue.message);
  }
  if (refusals.length === 0) formErrors.push("The answer was refused.");
  const moreChecksAfterThese = spec.crossFieldChecks && !(await fieldsPass(schema, raw, parseErrorPaths.length > 0));
  return { ok: false, fieldErrors, formErrors, refusals, moreChecksAfterThese };
}

/** The longest field path that the issue path starts with. */
function fieldOf(segments: readonly string[], fieldPaths: ReadonlySet<string>): string | undefined {
  for (let length = segments.length; length > 0; length -= 1) {
    const candidate = segments.slice(0, length).join(".");
    if (fieldPaths.has(candidate)) return candidate;
  }
  return undefined;
}

/** Whether every field passes its own checks — i.e. whether the object-level checks got to run. */
async function fieldsPass(schema: z.core.$ZodType, raw: unknown, unreadableFields: boolean): Promise<boolean> {
  if (unreadableFields) return false;
  const result = await z.safeParseAsync(withoutObjectChecks(schema), raw);
  return result.success;
}

/** A copy of the schema with the checks of every object in it removed, fields untouched. */
function withoutObjectChecks(schema: z.core.$ZodType): z.core.$ZodType {
  const node = schema as z.core.$ZodTypes;
  const def = node._zod.def;
  switch (def.type) {
    case "object": {
      const shape = Object.fromEntries(Object.entries(def.shape).map(([name, child]) => [name, withoutObjectChecks(child)]));
      return z.core.util.clone(node, { ...def, shape, checks: [] });
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
    case "catch":
      return z.core.util.clone(node, { ...def, innerType: withoutObjectChecks(def.innerType) } as typeof def);
    case "pipe":
      return z.core.util.clone(node, { ...def, in: withoutObjectChecks(def.in) });
    default:
      return schema;
  }
}

/**
 * Validate text typed per field (a terminal session, an answers file of strings): each field read
 * by the shared parser, then the whole judged by the schema.
 */
export async function validateTextAnswers<Schema extends z.core.$ZodType>(
  schema: Schema,
  answers: Readonly<Record<string, string | null | undefined>>,
  spec: QuestionSpec = specOf(schema),
): Promise<AnswerValidation<z.output<Schema>> & { raw: RawAnswer["raw"] }> {
  const { raw, parseErrors } = rawFromTextAnswers(spec, answers);
  return { ...(await validateAnswer(schema, raw, { spec, parseErrors })), raw };
}

/**
 * Validate a posted browser form: each field read by the shared parser with the browser's habits
 * (unticked box, one ticked checkbox, cleared input), then the whole judged by the schema.
 */
export async function validateFormAnswer<Schema extends z.core.$ZodType>(
  schema: Schema,
  form: FormAnswer,
  spec: QuestionSpec = specOf(schema),
): Promise<AnswerValidation<z.output<Schema>> & { raw: RawAnswer["raw"] }> {
  const { raw, parseErrors } = rawFromFormAnswer(spec, form);
  return { ...(await validateAnswer(schema, raw, { spec, parseErrors })), raw };
}
