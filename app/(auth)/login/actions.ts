"use server";

import { AuthError } from "next-auth";
import { signIn } from "@/lib/server/auth";
import { OIDC_PROVIDER_ID } from "@/lib/server/auth-constants";
import { safeCallbackPath } from "@/lib/server/callback-path";

/** What the sign-in form shows after a submission: the email typed stays in the input. */
export interface SignInState {
  email: string;
  error?: string;
}

/** Signs in with email and password; on success next-auth redirects (by throwing), so only failures return. */
export async function signInWithPassword(_previous: SignInState, formData: FormData): Promise<SignInState> {
  const email = String(formData.get("email") ?? "");
  const password = String(formData.get("password") ?? "");
  const redirectTo = safeCallbackPath(formData.get("callbackUrl"));
  if (!email.trim() || !password) {
    return { email, error: "Enter both your email and your password." };
  }
  try {
    await signIn("credentials", { email, password, redirectTo });
  } catch (error) {
    if (error instanceof AuthError) {
      return { email, error: "That email and password don't match an account. Check both and try again." };
    }
    throw error;
  }
  return { email };
}

/** Starts single sign-on through the configured OpenID Connect provider. */
export async function signInWithOidc(formData: FormData): Promise<void> {
  await signIn(OIDC_PROVIDER_ID, { redirectTo: safeCallbackPath(formData.get("callbackUrl")) });
}
