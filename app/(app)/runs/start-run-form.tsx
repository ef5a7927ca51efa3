"use client";

import { useActionState } from "react";
import { QuestionForm } from "@/components/questions/question-form";
import type { QuestionSpec } from "@/lib/questions";
import type { StartRunState } from "./actions";

interface Props {
  workflow: string;
  /** The one-time token this rendering of the form carries (a new uuid each time the page is rendered). */
  startToken: string;
  spec: QuestionSpec;
  submitLabel: string;
  action: (previous: StartRunState | null, formData: FormData) => Promise<StartRunState>;
}

/**
 * A workflow's start form, generated from its start-input schema by the same components as the
 * inbox's questions: refusals sit beside their fields and what was typed stays; without JavaScript it
 * is a plain form post. It carries a one-time token, so submitting it twice starts one run. A start
 * goes to the new run's page.
 */
export function StartRunForm({ workflow, startToken, spec, submitLabel, action: start }: Props) {
  const [state, action, pending] = useActionState(start, null);
  const token = state?.startToken ?? startToken;
  return (
    <>
      {state?.outcome === "unavailable" ? (
        <p role="alert" className="error-banner">
          {state.message}
        </p>
      ) : null}
      {/* After a refusal the form keeps everything typed. */}
      <QuestionForm spec={spec} action={action} state={state} pending={pending} submitLabel={pending ? "Starting…" : submitLabel} showIntro={false}>
        <input type="hidden" name="workflow" value={workflow} />
        <input type="hidden" name="startToken" value={token} />
      </QuestionForm>
    </>
  );
}
