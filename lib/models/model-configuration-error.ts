/**
 * The model settings in the environment are incomplete or contradictory. Thrown at start-up rather
 * than falling back to the scripted model, so that a typo never silently turns a real deployment
 * into a demo.
 */
export class ModelConfigurationError extends Error {
  /** Stable code; branch on this, never on the message text. */
  readonly code = "model_misconfigured" as const;
  /** The environment variable to set or correct. */
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(message);
    this.name = "ModelConfigurationError";
    this.variable = variable;
  }
}

/** Whether `error` is a {@link ModelConfigurationError}. */
export function isModelConfigurationError(error: unknown): error is ModelConfigurationError {
  return error instanceof ModelConfigurationError;
}
