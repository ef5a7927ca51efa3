import type { z } from "zod";

import type { QuestionField } from "@/lib/questions/question-spec";
import { schemaFromJsonSchema } from "@/lib/questions/schema-from-json-schema";
import { specFromSchema } from "@/lib/questions/spec-from-schema";

/** The zod schema made from a JSON Schema the test expects to be accepted. */
export function zodFrom(json: unknown): z.ZodObject {
  const result = schemaFromJsonSchema(json);
  if (!result.ok) throw new Error(`expected the schema to be accepted, but it was refused at "${result.path}": ${result.message}`);
  return result.schema;
}

/** The refusal of a JSON Schema the test expects to be refused. */
export function refusalOf(json: unknown): { path: string; message: string } {
  const result = schemaFromJsonSchema(json);
  if (result.ok) throw new Error("expected the schema to be refused");
  return { path: result.path, message: result.message };
}

/** A root object schema with these properties, all of them required unless `optional` names them. */
export function objectOf(properties: Record<string, unknown>, optional: readonly string[] = []): Record<string, unknown> {
  return { type: "object", properties, required: Object.keys(properties).filter((name) => !optional.includes(name)) };
}

/** The question spec entry of a one-property JSON Schema (the property is required unless `required` is false). */
export function questionOf(property: unknown, required = true): QuestionField {
  const [field] = specFromSchema(zodFrom({ type: "object", properties: { field: property }, required: required ? ["field"] : [] })).fields;
  if (field === undefined) throw new Error("the schema has no field");
  return field;
}
