import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { User } from "@/db/schema";
import type { Role } from "@/lib/auth/roles";
import { AppError, type ErrorCode, ERROR_CODES } from "@/lib/errors";
import { authorize } from "./session";

/** What every server action returns: data, or an error in the user's terms. Never a throw at the client. */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> } };

/** Collects zod issues by their full dotted path; issues with no path go under "". */
export function fieldErrorsFrom(error: z.ZodError): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = Object.create(null);
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".");
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}

/**
 * Wraps a server action: every action is a public endpoint, so it authorises the caller (holding one
 * of `roles`) and parses its input with `input` before `handler` runs. Known errors come back as
 * data; anything else is logged and reported generically.
 */
export function defineAction<Schema extends z.ZodType, T>(options: {
  roles: readonly Role[];
  input: Schema;
  handler: (input: z.output<Schema>, user: User) => Promise<T>;
}): (raw: unknown) => Promise<ActionResult<T>> {
  return async (raw) => {
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
      if (error instanceof AppError) return { ok: false, error: { code: error.code, message: error.message } };
      console.error("server action failed", error);
      return { ok: false, error: { code: "internal", message: ERROR_CODES.internal.message } };
    }
  };
}

/** Turns submitted form data into a plain object for a zod schema; repeated names become arrays. */
export function formDataToObject(formData: FormData): Record<string, unknown> {
  const object: Record<string, unknown> = Object.create(null);
  for (const [key, value] of formData.entries()) {
    // React's own fields for progressive enhancement.
    if (key.startsWith("$ACTION")) continue;
    if (typeof value !== "string") continue;
    const existing = object[key];
    if (existing === undefined) object[key] = value;
    else object[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return object;
}
