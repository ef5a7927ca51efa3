import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { answerLinkRefusal } from "@/lib/answer-link-words";
import { answerLinkState } from "@/lib/answer-links";
import { getDb } from "@/lib/database";
import { followAnswerLinkAction } from "./actions";
import { FollowAnswerLinkForm } from "./follow-form";

export const metadata: Metadata = { title: "Answer a question", referrer: "no-referrer" };

/**
 * Where an email's answer link lands. Opening it uses nothing (mail scanners open links too): it
 * says whether the link can still be followed, and the button follows it.
 */
export default async function AnswerLinkPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const state = await answerLinkState(await getDb(), token);
  const refusal = state.status === "valid" ? null : answerLinkRefusal(state);
  return (
    <main className="centered">
      <div className="card sign-in">
        <h1>Answer a question</h1>
        {refusal ? (
          <>
            <p role="alert" className="error-banner">
              {refusal.message}
            </p>
            <p>
              <Link href={refusal.signInHref}>Sign in</Link>
            </p>
          </>
        ) : (
          <>
            <p className="muted">This link opens one question for you to answer, without a password. It works once.</p>
            <FollowAnswerLinkForm token={token} action={followAnswerLinkAction} />
          </>
        )}
      </div>
    </main>
  );
}
