"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import { homePathFor } from "@/lib/auth/roles";
import type { ErrorCode } from "@/lib/errors";
import { getDb } from "@/lib/database";
import { acceptInvite, passwordSchema } from "@/lib/invites";
import { fieldErrorsFrom, formDataToObject, isFormSubmission } from "@/lib/server/action-input";
import { signIn } from "@/lib/server/auth";

/** What the set-password form shows after a submission that did not sign the person in. */
export interface SetPasswordState {
  /** Why not: a password refused (by field), or a link that no longer works. */
  error?: string;
  fieldErrors?: Record<string, string[]>;
  linkNotValid?: boolean;
  /** Why it was refused, for callers that branch on it (never on the words). */
  code?: ErrorCode;
}

const input = z
  .object({ token: z.string().max(200), password: passwordSchema, confirm: z.string() })
  .refine((fields) => fields.password === fields.confirm, { message: "The two passwords differ: type the same one twice.", path: ["confirm"] });

/**
 * Public, like sign-in: the link is the authority. Uses the invite once (one conditional update),
 * sets the password, and signs the person in with it, landing on their home page — next-auth
 * redirects by throwing, so only refusals return.
 */
export async function setPasswordWithInvite(_previous: SetPasswordState | null, submitted: FormData | Record<string, unknown>): Promise<SetPasswordState> {
  if (!isFormSubmission(submitted)) return { error: "This is not a form submission: send form fields as text.", code: "invalid_input" };
  const parsed = input.safeParse(formDataToObject(submitted));
  if (!parsed.success) return { error: "Choose a password that meets the rules below.", fieldErrors: fieldErrorsFrom(parsed.error), code: "invalid_input" };
  const accepted = await acceptInvite(await getDb(), { token: parsed.data.token, password: parsed.data.password });
  if (accepted.status !== "accepted") return { error: "This invite link has expired or has already been used.", linkNotValid: true, code: "not_found" };
  const { person } = accepted;
  try {
    await signIn("credentials", { email: person.email, password: parsed.data.password, redirectTo: homePathFor(person.roles) });
  } catch (error) {
    if (error instanceof AuthError) return { error: "Your password is set, but signing in did not complete: sign in with it on the sign-in page." };
    throw error;
  }
  return {};
}
