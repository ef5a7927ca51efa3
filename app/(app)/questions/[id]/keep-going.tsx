"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { NextQuestion } from "@/lib/question-view";

/** Where this tab remembers the question its person has just answered (or declined), until the page follows it. */
const JUST_ANSWERED = "parley:just-answered";

/**
 * Says, in this tab, that its person has just answered (or declined) `questionId`: if the same run
 * asks them again, {@link KeepGoing} takes them there. A question reopened later from the inbox does
 * not move anyone.
 */
export function markJustAnswered(questionId: string): void {
  try {
    sessionStorage.setItem(JUST_ANSWERED, questionId);
  } catch {
    // Storage may be off: the page still links the next question.
  }
  window.dispatchEvent(new CustomEvent(JUST_ANSWERED, { detail: questionId }));
}

function justAnswered(questionId: string): boolean {
  try {
    return sessionStorage.getItem(JUST_ANSWERED) === questionId;
  } catch {
    return false;
  }
}

/**
 * What comes after a question its person answered: the question the same run asks them next (they
 * are taken there when they have just answered in this tab — the page's live refresh brings it), and
 * the soonest due of the rest of their inbox, opened with n. Without JavaScript, both are links.
 */
export function KeepGoing({ questionId, sameRun, next }: { questionId: string; sameRun: NextQuestion | null; next: NextQuestion | null }) {
  const router = useRouter();

  useEffect(() => {
    if (!sameRun) return;
    const follow = () => {
      try {
        sessionStorage.removeItem(JUST_ANSWERED);
      } catch {
        // Nothing kept: nothing to forget.
      }
      router.push(`/questions/${sameRun.id}`);
    };
    if (justAnswered(questionId)) {
      follow();
      return;
    }
    const onAnswered = (event: Event) => {
      if ((event as CustomEvent<string>).detail === questionId) follow();
    };
    window.addEventListener(JUST_ANSWERED, onAnswered);
    return () => window.removeEventListener(JUST_ANSWERED, onAnswered);
  }, [questionId, sameRun, router]);

  useEffect(() => {
    if (!next) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "n" || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable='true']")) return;
      event.preventDefault();
      router.push(`/questions/${next!.id}`);
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [next, router]);

  return (
    <nav className="keep-going" aria-label="What next" data-testid="keep-going">
      {sameRun ? (
        <p role="status">
          The same run asks you again: <Link href={`/questions/${sameRun.id}`}>{sameRun.headline}</Link>
        </p>
      ) : null}
      {next ? (
        <p>
          Next in your inbox: <Link href={`/questions/${next.id}`}>{next.headline}</Link> <kbd title="Press n to open it">n</kbd>
        </p>
      ) : sameRun ? null : (
        <p>
          Nothing else is waiting for you. <Link href="/inbox">Back to the inbox</Link>
        </p>
      )}
    </nav>
  );
}
