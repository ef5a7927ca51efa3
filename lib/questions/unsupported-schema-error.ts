/**
 * A schema has a shape that cannot be asked as questions (a union of objects, a record, a tuple…).
 * Thrown when the spec is derived — when the flow is declared or first asks — never when a person
 * answers.
 */
export class UnsupportedSchemaError extends Error {
  /** Stable code; branch on this, never on the message text. */
  readonly code = "unsupported_schema" as const;
  /** Dotted path of the offending field (`""` for the schema itself). */
  readonly path: string;
  /** What is wrong with it, in a sentence (the message without the field's name). */
  readonly problem: string;

  constructor(path: string, problem: string) {
    super(`${path === "" ? "The schema" : `Field "${path}"`} cannot be asked as a question: ${problem}`);
    this.name = "UnsupportedSchemaError";
    this.path = path;
    this.problem = problem;
  }
}

/** Whether `error` is an {@link UnsupportedSchemaError}. */
export function isUnsupportedSchemaError(error: unknown): error is UnsupportedSchemaError {
  return error instanceof UnsupportedSchemaError;
}
