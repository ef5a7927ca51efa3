/**
 * The serialisable question spec: what a flow's zod schema asks of a person, as plain JSON. It is
 * stored with the question record and rendered by the browser form and the terminal; the schema
 * itself stays in code and is the only judge of the answer.
 *
 * The shape is defined in db/types/question-spec.ts, beside the record that stores it; this module
 * is where the rest of Parley imports it from.
 */
import type { FieldKind } from "../../db/types/question-spec";

export {
  type FieldHints,
  type FieldKind,
  type JsonValue,
  type ListItemKind,
  type OptionValue,
  QUESTION_SPEC_VERSION,
  type QuestionField,
  type QuestionGroup,
  type QuestionOption,
  type QuestionSpec,
} from "../../db/types/question-spec";

/** Every {@link FieldKind}, in the order a surface documents them. */
export const FIELD_KINDS: readonly FieldKind[] = ["text", "number", "integer", "enum", "multi-choice", "boolean", "list", "date"];
