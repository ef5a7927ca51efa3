import { z } from "zod";

import type { QuestionField } from "@/lib/questions/question-spec";
import { specFromSchema } from "@/lib/questions/spec-from-schema";

/** The question spec entry of a one-field schema, for tests of how a field's text is read. */
export function fieldOf(schema: z.ZodType): QuestionField {
  const [field] = specFromSchema(z.object({ field: schema })).fields;
  if (field === undefined) throw new Error("the schema has no field");
  return field;
}
