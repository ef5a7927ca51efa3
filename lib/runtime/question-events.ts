import type { QuestionSpec } from "@/lib/questions/question-spec";

/**
 * The data of a `question-asked` run event, the same for an agent's ask and a flow's
 * questionnaire: the question's fields with their options, and (for screens written for a
 * single question) the first field's text and options.
 */
export function questionAskedData(questionId: string, spec: QuestionSpec, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const first = spec.fields[0];
  return {
    questionId,
    ...(spec.title ? { title: spec.title } : {}),
    text: first?.question ?? "",
    options: first?.options ? first.options.map((option) => String(option.value)) : null,
    fields: spec.fields.map((field) => ({
      path: field.path,
      question: field.question,
      kind: field.kind,
      options: field.options ? field.options.map((option) => String(option.value)) : null,
    })),
    ...extra,
  };
}
