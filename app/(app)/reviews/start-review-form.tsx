"use client";

import { useActionState } from "react";
import type { StartReviewState } from "./actions";

interface Props {
  assignees: { id: string; name: string; away: boolean }[];
  today: string;
  action: (previous: StartReviewState | null, formData: FormData) => Promise<StartReviewState>;
}

/** Files a claim and starts its review. A plain form underneath: it works without JavaScript. */
export function StartReviewForm({ assignees, today, action: start }: Props) {
  const [state, action, pending] = useActionState(start, null);
  const values = state?.values ?? {};
  const errors = state && !state.ok ? (state.error.fieldErrors ?? {}) : {};
  const field = (name: string) => ({
    name,
    id: `claim-${name}`,
    defaultValue: values[name] ?? "",
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `claim-${name}-error` : undefined,
  });
  const error = (name: string) =>
    errors[name] ? (
      <span id={`claim-${name}-error`} className="error-text">
        {errors[name].join(" ")}
      </span>
    ) : null;
  // Remount after each submission so React 19's form reset shows what the server returned.
  const key = JSON.stringify(values);

  return (
    <form action={action} className="start-review" noValidate key={key}>
      {state?.ok ? (
        <p role="status" className="answer-taken">
          Review of “{state.data.title}” started: the Auditor is reading it now.
        </p>
      ) : state && !state.ok ? (
        <p role="alert" className="error-banner">
          {state.error.message}
        </p>
      ) : null}
      <div className="form-grid">
        <label className="field" htmlFor="claim-title">
          <span>Title</span>
          <input {...field("title")} maxLength={200} />
          {error("title")}
        </label>
        <label className="field" htmlFor="claim-merchant">
          <span>Merchant</span>
          <input {...field("merchant")} maxLength={200} />
          {error("merchant")}
        </label>
        <label className="field" htmlFor="claim-amount">
          <span>Amount</span>
          <input {...field("amount")} inputMode="decimal" placeholder="412.80" />
          {error("amount")}
        </label>
        <label className="field" htmlFor="claim-currency">
          <span>Currency</span>
          <input {...field("currency")} defaultValue={values.currency ?? "USD"} maxLength={3} />
          {error("currency")}
        </label>
        <label className="field" htmlFor="claim-incurredOn">
          <span>Date of the charge</span>
          <input {...field("incurredOn")} type="date" max={today} />
          {error("incurredOn")}
        </label>
        <label className="field" htmlFor="claim-assigneeId">
          <span>Who answers the Auditor</span>
          <select {...field("assigneeId")}>
            <option value="">Choose a person…</option>
            {assignees.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
                {person.away ? " (away)" : ""}
              </option>
            ))}
          </select>
          {error("assigneeId")}
        </label>
      </div>
      <label className="field" htmlFor="claim-description">
        <span>Description (optional)</span>
        <textarea {...field("description")} rows={3} maxLength={2000} />
        {error("description")}
      </label>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? "Starting…" : "Start review"}
      </button>
    </form>
  );
}
