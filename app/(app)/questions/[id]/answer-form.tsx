"use client";

import { useActionState } from "react";
import { QuestionForm } from "@/components/questions/question-form";
import type { QuestionSpec } from "@/lib/questions";
import type { AnswerState } from "./answer-state";

/** The generated form for one question, submitted through the answer action; works without JavaScript. */
export function AnswerForm({
  questionId,
  spec,
  attemptLabel,
  lastAttempt = false,
  action: submit,
}: {
  questionId: string;
  spec: QuestionSpec;
  attemptLabel?: string;
  /** The next refusal closes the question: said before the person sends. */
  lastAttempt?: boolean;
  action: (previous: AnswerState | null, formData: FormData) => Promise<AnswerState>;
}) {
  const [state, action, pending] = useActionState(submit, null);
  if (state?.outcome === "answered") {
    return (
      <p role="status" className="answer-taken">
        {state.message}
      </p>
    );
  }
  return (
    <>
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
    </>
  );
}
