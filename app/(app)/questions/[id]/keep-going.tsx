"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { NextQuestion } from "@/lib/question-view";

/** The event that says a question was just answered (or declined) on this page. */
const JUST_ANSWERED = "parley:just-answered";

/** How long the page shows that the answer was taken before it follows the run to its next question. */
const FOLLOW_AFTER_MS = 1_200;

/**
 * The question this page's person has just answered (or declined), until the page follows its run:
 * kept in memory, so it lasts while they stay on the page (its live refreshes included) and not past
 * a reload or a question reopened later.
 */
let justAnswered: string | null = null;

/** Says that this page's person has just answered (or declined) `questionId`: if the same run asks them again, {@link KeepGoing} takes them there. */
export function markJustAnswered(questionId: string): void {
  justAnswered = questionId;
  window.dispatchEvent(new CustomEvent(JUST_ANSWERED, { detail: questionId }));
}

/**
 * What comes after a question its person answered: the question the same run asks them next (they
 * are taken there, a moment later, when they have just answered on this page — the page's live
 * refresh brings it), and the soonest due of the rest of their inbox, opened with n. Without
 * JavaScript, both are links.
 */
export function KeepGoing({ questionId, sameRun, next }: { questionId: string; sameRun: NextQuestion | null; next: NextQuestion | null }) {
  const router = useRouter();

  useEffect(() => {
    if (!sameRun) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A moment to read that the answer was taken, then on to what the run asks next.
    const follow = () => {
      timer ??= setTimeout(() => {
        justAnswered = null;
        router.push(`/questions/${sameRun.id}`);
      }, FOLLOW_AFTER_MS);
    };
    if (justAnswered === questionId) follow();
    const onAnswered = (event: Event) => {
      if ((event as CustomEvent<string>).detail === questionId) follow();
    };
    window.addEventListener(JUST_ANSWERED, onAnswered);
    return () => {
      clearTimeout(timer);
      window.removeEventListener(JUST_ANSWERED, onAnswered);
    };
  }, [questionId, sameRun, router]);

  return (
    <nav className="keep-going" aria-label="What next" data-testid="keep-going">
      {sameRun ? (
        <p role="status">
          The same run asks you again: <Link href={`/questions/${sameRun.id}`}>{sameRun.headline}</Link>
        </p>
      ) : null}
      {next ? (
        <p>
          Next in your inbox:{" "}
          <Link href={`/questions/${next.id}`} data-key="n" data-key-label="Open the next question in your inbox">
            {next.headline}
          </Link>{" "}
          <kbd title="Press n to open it">n</kbd>
        </p>
      ) : sameRun ? null : (
        <p>
          Nothing else is waiting for you. <Link href="/inbox">Back to the inbox</Link>
        </p>
      )}
    </nav>
  );
}
