"use server";

import { redirect, unstable_rethrow } from "next/navigation";
import { findUserById } from "@/db/queries/users";
import { answerLinkRefusal } from "@/lib/answer-link-words";
import { followAnswerLink } from "@/lib/answer-links";
import { getDb } from "@/lib/database";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors";
import { log } from "@/lib/log";
import { isFormSubmission } from "@/lib/server/action-input";
import { asLoggedAction } from "@/lib/server/action-log";
import { startAnswerSession } from "@/lib/server/answer-session";
import { currentUser } from "@/lib/server/session";

/** What following a link that could not be followed says. */
export interface FollowAnswerLinkState {
  outcome: "refused";
  /** Why, for callers that branch on it: `not_found` for a used, expired or unknown link. */
  code: ErrorCode;
  message: string;
  signInHref: string;
}

/**
 * Follows an answer link from an email: public, as the link's token is the credential. Uses the link
 * (once), signs its person in with a session that may answer only its question, and takes them to
 * it; a used, expired or unknown link says so and offers sign-in.
 */
export async function followAnswerLinkAction(_previous: FollowAnswerLinkState | null, submitted: FormData): Promise<FollowAnswerLinkState> {
  return asLoggedAction(() => followLink(submitted));
}

async function followLink(submitted: FormData): Promise<FollowAnswerLinkState> {
  let destination: string;
  try {
    const token = isFormSubmission(submitted) ? (submitted instanceof FormData ? submitted.get("token") : (submitted as Record<string, unknown>).token) : undefined;
    const db = await getDb();
    const followed = await followAnswerLink(db, token);
    if (followed.status !== "signed-in") return { outcome: "refused", code: "not_found", ...answerLinkRefusal(followed) };
    const signedIn = await currentUser();
    // Someone already signed in as this person keeps their full session.
    if (signedIn?.id !== followed.userId) {
      const person = await findUserById(db, followed.userId);
      if (!person) return { outcome: "refused", code: "not_found", ...answerLinkRefusal({ status: "unknown" }) };
      await startAnswerSession(person, followed.questionId, followed.sessionExpiresAt);
    }
    destination = `/questions/${followed.questionId}`;
  } catch (error) {
    unstable_rethrow(error);
    log.error({ err: error }, "Following an answer link failed.");
    return { outcome: "refused", code: "internal", message: ERROR_CODES.internal.message, signInHref: "/login" };
  }
  redirect(destination);
}
