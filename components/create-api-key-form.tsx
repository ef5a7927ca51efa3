"use client";

import { useActionState, useId } from "react";
import type { ApiKeyKind, CreatedApiKey } from "@/lib/api-keys";
import type { ActionResult } from "@/lib/server/define-action";
import { ApiKeySecrets } from "./api-key-secrets";

/** What a create-key action returns: the new key with its secret (the one time it exists), and the name typed, to show again beside a refusal. */
export type CreateApiKeyState = ActionResult<CreatedApiKey> & { values: { name: string } };

const WORDING = {
  agent: {
    noun: "key",
    secretLabel: "API key",
    copyLabel: "Copy the API key",
    hint: "Who people see asking, e.g. “Deploy bot” or “Billing agent”.",
    submit: "Create key",
    once: "Copy it now: it is not shown again, nor is its webhook signing secret. Parley keeps only a hash of the key.",
  },
  personal: {
    noun: "token",
    secretLabel: "Token",
    copyLabel: "Copy the token",
    hint: "What it is for, e.g. the machine it lives on.",
    submit: "Create token",
    once: "Copy it now: it is not shown again. Parley keeps only a hash of it.",
  },
} as const satisfies Record<ApiKeyKind, unknown>;

/**
 * Names and makes a key (or a personal token). A plain form underneath, so it works without
 * JavaScript; after a refusal the name typed stays beside the reason, and after a success the new
 * secret is shown once, above the form, and never again.
 */
export function CreateApiKeyForm({
  kind,
  nameMaxLength,
  action: create,
}: {
  kind: ApiKeyKind;
  /** The longest name the server takes (`API_KEY_NAME_MAX`), passed in: this bundle can't import the server's module. */
  nameMaxLength: number;
  action: (previous: CreateApiKeyState | null, formData: FormData) => Promise<CreateApiKeyState>;
}) {
  const [state, action, pending] = useActionState(create, null);
  const id = useId();
  const wording = WORDING[kind];
  const created = state?.ok ? state.data : null;
  const refusal = state && !state.ok ? state.error : null;
  const nameErrors = refusal?.fieldErrors?.name ?? [];
  return (
    <>
      {created ? (
        <section className="key-created" aria-labelledby={`${id}-created`}>
          <h3 id={`${id}-created`}>
            New {wording.noun} “{created.key.name}”
          </h3>
          <p className="notice">
            <strong>{wording.once}</strong>
          </p>
          <ApiKeySecrets secret={created.secret} webhookSecret={created.webhookSecret} secretLabel={wording.secretLabel} copyLabel={wording.copyLabel} />
        </section>
      ) : null}
      <form action={action} className="key-form">
        {refusal && nameErrors.length === 0 ? (
          <p role="alert" className="error-banner">
            {refusal.message}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <p id={`${id}-hint`} className="question-hint">
            {wording.hint}
          </p>
          <div className="key-form-row">
            <input
              id={`${id}-name`}
              name="name"
              required
              maxLength={nameMaxLength}
              autoComplete="off"
              aria-describedby={`${id}-hint${nameErrors.length > 0 ? ` ${id}-errors` : ""}`}
              aria-invalid={nameErrors.length > 0 || undefined}
              defaultValue={state?.values.name ?? ""}
              key={state?.values.name ?? ""}
            />
            <button type="submit" className="primary" disabled={pending}>
              {pending ? "Creating…" : wording.submit}
            </button>
          </div>
          {nameErrors.length > 0 ? (
            <p id={`${id}-errors`} role="alert" className="error-text">
              {nameErrors.join(" ")}
            </p>
          ) : null}
        </div>
      </form>
    </>
  );
}
