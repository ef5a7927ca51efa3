import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import type { User } from "@/db/schema";
import type { Role } from "@/lib/auth/roles";
import { AppError, type ErrorCode, ERROR_CODES } from "@/lib/errors";
import { log } from "@/lib/log";
import { fieldErrorsFrom, formDataToObject, isFormSubmission } from "./action-input";
import { asLoggedAction } from "./action-log";
import { authorize } from "./session";

export { fieldErrorsFrom, formDataToObject, isFormSubmission } from "./action-input";

/** What every server action returns: data, or an error in the user's terms. Never a throw at the client. */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> } };

/**
 * Wraps a server action: every action is a public endpoint, so it authorises the caller (holding one
 * of `roles`) and parses its input with `input` before `handler` runs. Known errors come back as
 * data; anything else is logged and reported generically. The lines it logs carry the request's id
 * (lib/server/action-log.ts).
 */
export function defineAction<Schema extends z.ZodType, T>(options: {
  roles: readonly Role[];
  input: Schema;
  handler: (input: z.output<Schema>, user: User) => Promise<T>;
}): (raw: unknown) => Promise<ActionResult<T>> {
  return (raw) => asLoggedAction(() => run(raw));
  async function run(raw: unknown): Promise<ActionResult<T>> {
    try {
      const user = await authorize(options.roles);
      const parsed = options.input.safeParse(raw);
      if (!parsed.success) {
        return {
          ok: false,
          error: { code: "invalid_input", message: ERROR_CODES.invalid_input.message, fieldErrors: fieldErrorsFrom(parsed.error) },
        };
      }
      return { ok: true, data: await options.handler(parsed.data, user) };
    } catch (error) {
      unstable_rethrow(error);
      if (error instanceof AppError) {
        // A refusal about one field (a name taken, an email in use) is shown beside that field.
        const fieldErrors = error.path ? { [error.path]: [error.message] } : undefined;
        return { ok: false, error: { code: error.code, message: error.message, ...(fieldErrors ? { fieldErrors } : {}) } };
      }
      log.error({ err: error }, "A server action failed.");
      return { ok: false, error: { code: "internal", message: ERROR_CODES.internal.message } };
    }
  }
}

/**
 * {@link defineAction} for a form's action: it takes what the form posted (FormData, or a plain
 * object of strings from a hand-made call) and hands `input` its fields as an object. A submission
 * of the wrong type is refused as `invalid_input`, never read as an empty form.
 */
export function defineFormAction<Schema extends z.ZodType, T>(options: {
  roles: readonly Role[];
  input: Schema;
  handler: (input: z.output<Schema>, user: User) => Promise<T>;
}): (submitted: unknown) => Promise<ActionResult<T>> {
  const form = z
    .custom<unknown>(isFormSubmission, { message: "This is not a form submission: send form fields as text." })
    .transform(formDataToObject)
    // Any schema of an object of fields; zod can't see that `input` takes what formDataToObject gives.
    .pipe(options.input as unknown as z.ZodType<z.output<Schema>, Record<string, unknown>>);
  return defineAction<typeof form, T>({ roles: options.roles, input: form, handler: options.handler });
}
