"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import type { ErrorCode } from "@/lib/errors";
import { formDataToObject, isFormSubmission } from "@/lib/server/action-input";
import { signIn } from "@/lib/server/auth";
import { tooManyAttemptsMessage } from "@/lib/auth/sign-in-throttle";
import { DEACTIVATED_SIGN_IN, DEACTIVATED_SIGN_IN_MESSAGE, OIDC_PROVIDER_ID, TOO_MANY_SIGN_INS } from "@/lib/server/auth-constants";
import { safeCallbackPath } from "@/lib/server/callback-path";

/** What the sign-in form shows after a submission: the email typed stays in the input. */
export interface SignInState {
  email: string;
  error?: string;
  /** Why sign-in was refused, for callers that branch on it (never on the message). */
  code?: ErrorCode;
}

/** A form's text field, or "" for anything else a hand-made call may send. */
function textField(fields: Record<string, unknown>, name: string): string {
  const value = fields[name];
  return typeof value === "string" ? value : "";
}

/** Signs in with email and password; on success next-auth redirects (by throwing), so only failures return. */
export async function signInWithPassword(_previous: SignInState, submitted: FormData): Promise<SignInState> {
  if (!isFormSubmission(submitted)) return { email: "", error: "Enter both your email and your password.", code: "invalid_input" };
  const fields = formDataToObject(submitted);
  const email = textField(fields, "email");
  const password = textField(fields, "password");
  const redirectTo = safeCallbackPath(fields.callbackUrl);
  if (!email.trim() || !password) {
    return { email, error: "Enter both your email and your password.", code: "invalid_input" };
  }
  try {
    await signIn("credentials", { email, password, redirectTo });
  } catch (error) {
    if (error instanceof CredentialsSignin && error.code === DEACTIVATED_SIGN_IN) {
      return { email, error: DEACTIVATED_SIGN_IN_MESSAGE, code: "forbidden" };
    }
    if (error instanceof CredentialsSignin && error.code === TOO_MANY_SIGN_INS) {
      const minutes = (error as CredentialsSignin & { retryAfterMinutes?: unknown }).retryAfterMinutes;
      return { email, error: tooManyAttemptsMessage(typeof minutes === "number" ? minutes : 15), code: "rate_limited" };
    }
    if (error instanceof AuthError) {
      return { email, error: "That email and password don't match an account. Check both and try again.", code: "unauthorized" };
    }
    throw error;
  }
  return { email };
}

/** Starts single sign-on through the configured OpenID Connect provider. */
export async function signInWithOidc(submitted: FormData): Promise<void> {
  const fields = isFormSubmission(submitted) ? formDataToObject(submitted) : {};
  await signIn(OIDC_PROVIDER_ID, { redirectTo: safeCallbackPath(fields.callbackUrl) });
}
