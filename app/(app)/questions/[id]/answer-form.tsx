"use client";

import { LocalTime } from "@/components/local-time";
import { formatDuration } from "@/lib/sla-clock";
import { type FormEvent, type ReactNode, useActionState, useEffect, useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { QuestionForm } from "@/components/questions/question-form";
import { answerToCopy, describeTypedAnswer, type QuestionSpec } from "@/lib/questions";
import type { AnswerState } from "./answer-state";
import { markJustAnswered } from "./keep-going";

/** Who answered a question this person was still answering, as the page words it. */
export interface TakenBy {
  name: string;
  /** When their answer was taken (ISO), and how long before the page was made. */
  at: string;
  agoMs: number;
}

/** The strings a form's inputs hold now, by input name (its hidden inputs left out). */
function typedValues(form: HTMLFormElement): Record<string, string[]> {
  const values: Record<string, string[]> = Object.create(null);
  for (const [name, entry] of new FormData(form)) {
    if (typeof entry !== "string" || name === "questionId" || name.startsWith("$")) continue;
    (values[name] ??= []).push(entry);
  }
  return { ...values };
}

/**
 * The generated form for one question, submitted through the answer action; works without
 * JavaScript. It stays where it is when the question stops taking answers, so what the person was
 * writing is never lost with the form: whether their own submission lost (someone answered first,
 * the action hands back what they sent) or the page's live refresh closed the form while they typed
 * (what the inputs held is kept as they type), they are told their answer was not taken, by whom
 * and when, with their own words kept to copy. `closed` is what the page shows of a question that no
 * longer takes answers.
 */
export function AnswerForm({
  questionId,
  spec,
  open,
  closed,
  answeredByMe = false,
  takenBy,
  attemptLabel,
  lastAttempt = false,
  action: submit,
}: {
  questionId: string;
  spec: QuestionSpec;
  /** Whether the question takes answers now. */
  open: boolean;
  /** What the page shows once it does not: who answered and what, or why it closed. */
  closed?: ReactNode;
  /** This person's answer is the one taken. */
  answeredByMe?: boolean;
  /** Someone else's answer was taken: who and when. */
  takenBy?: TakenBy;
  attemptLabel?: string;
  /** The next refusal closes the question: said before the person sends. */
  lastAttempt?: boolean;
  action: (previous: AnswerState | null, formData: FormData) => Promise<AnswerState>;
}) {
  const [state, action, pending] = useActionState(submit, null);
  // Taken: if the same run asks this person again, the page follows it there.
  useEffect(() => {
    if (state?.outcome === "answered") markJustAnswered(questionId);
  }, [state, questionId]);
  // What the inputs held when last changed: the form can close under the person (a live refresh) before they send.
  const [typed, setTyped] = useState<Record<string, string[]> | null>(null);
  const keepTyped = (event: FormEvent<HTMLDivElement>) => {
    const form = event.currentTarget.querySelector("form");
    if (form) setTyped(typedValues(form));
  };

  if (!open) {
    const unsent = answeredByMe ? null : state?.outcome === "unavailable" && state.values ? state.values : typed;
    const lines = unsent ? describeTypedAnswer(spec, unsent) : [];
    return (
      <>
        {lines.length > 0 ? <UnsentAnswer text={answerToCopy(lines)} takenBy={takenBy} /> : null}
        {closed}
      </>
    );
  }
  if (state?.outcome === "answered") {
    return (
      <p role="status" className="answer-taken">
        {state.message}
      </p>
    );
  }
  return (
    <div onChange={keepTyped} onInput={keepTyped} data-key="a" data-key-label="Go to the answer">
      {state?.outcome ? (
        <p role="alert" className="error-banner">
          {state.message}
        </p>
      ) : null}
      {state?.outcome === "closed" ? null : (
        <QuestionForm stopCertainRefusals spec={spec} action={action} state={state ?? (attemptLabel || lastAttempt ? { attemptLabel, lastAttempt } : null)} pending={pending} showIntro={false}>
          <input type="hidden" name="questionId" value={questionId} />
        </QuestionForm>
      )}
    </div>
  );
}

/** The person's own answer that was not taken: said plainly, with their words kept to copy. */
function UnsentAnswer({ text, takenBy }: { text: string; takenBy: TakenBy | undefined }) {
  return (
    <section className="answer-not-taken" aria-labelledby="answer-not-taken-heading" data-testid="answer-not-taken">
      <div role="alert">
        <h2 id="answer-not-taken-heading">Your answer was not taken</h2>
        <p>
          {takenBy ? (
            <>
              <strong>{takenBy.name}</strong> answered first, at <LocalTime at={takenBy.at} /> ({formatDuration(takenBy.agoMs)} ago). Their answer is below; yours was not sent.
            </>
          ) : (
            "The question closed before your answer was sent."
          )}
        </p>
      </div>
      <p className="muted">What you wrote, kept for you to copy:</p>
      <pre className="kept-answer" data-testid="kept-answer">
        {text}
      </pre>
      <CopyButton text={text} label="Copy what you wrote" />
    </section>
  );
}
