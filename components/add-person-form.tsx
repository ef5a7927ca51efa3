"use client";

import { useActionState, useId } from "react";
import { InviteLinkShown } from "./invite-link-shown";
import { type AddPersonState, ROLE_CHOICES } from "./person-forms-state";


function FieldErrors({ id, errors }: { id: string; errors: string[] }) {
  return errors.length > 0 ? (
    <p id={id} role="alert" className="error-text">
      {errors.join(" ")}
    </p>
  ) : null;
}

/**
 * Adds a person: name, email, roles and groups. A plain form underneath, so it works without
 * JavaScript; after a refusal what was typed stays beside the reason, and after a success their
 * invite link is shown once, above the form.
 */
export function AddPersonForm({
  groups,
  nameMaxLength,
  action: add,
}: {
  groups: { id: string; name: string }[];
  /** The longest name the server takes, passed in: this bundle can't import the server's module. */
  nameMaxLength: number;
  action: (previous: AddPersonState | null, formData: FormData) => Promise<AddPersonState>;
}) {
  const [state, action, pending] = useActionState(add, null);
  const id = useId();
  const refusal = state && !state.ok ? state.error : null;
  const errors = (field: string) => Object.entries(refusal?.fieldErrors ?? {}).flatMap(([path, messages]) => (path === field || path.startsWith(`${field}.`) ? messages : []));
  const onAField = ["name", "email", "roles", "groupIds"].some((field) => errors(field).length > 0);
  // After a refusal, what was typed; otherwise a fresh form (an assignee, the most common role).
  const values = state && !state.ok ? state.values : { name: "", email: "", roles: ["assignee"], groupIds: [] };
  // A fresh form after each submission shows what the server sent back (React resets the inputs).
  const formKey = JSON.stringify(state?.values ?? null);
  return (
    <>
      {state?.ok ? <InviteLinkShown invite={state.data} headingId={`${id}-created`} /> : null}
      <form action={action} className="person-form" key={formKey} aria-label="Add a person">
        {refusal && !onAField ? (
          <p role="alert" className="error-banner">
            {refusal.message}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            name="name"
            required
            maxLength={nameMaxLength}
            autoComplete="off"
            defaultValue={values.name}
            aria-invalid={errors("name").length > 0 || undefined}
            aria-describedby={errors("name").length > 0 ? `${id}-name-errors` : undefined}
          />
          <FieldErrors id={`${id}-name-errors`} errors={errors("name")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            required
            autoComplete="off"
            defaultValue={values.email}
            aria-invalid={errors("email").length > 0 || undefined}
            aria-describedby={errors("email").length > 0 ? `${id}-email-errors` : undefined}
          />
          <FieldErrors id={`${id}-email-errors`} errors={errors("email")} />
        </div>
        <fieldset className="checks" aria-describedby={errors("roles").length > 0 ? `${id}-roles-errors` : undefined}>
          <legend>Roles</legend>
          {ROLE_CHOICES.map((role) => (
            <label key={role.value}>
              <input type="checkbox" name="roles" value={role.value} defaultChecked={values.roles.includes(role.value)} /> {role.label}{" "}
              <span className="muted">— {role.hint}</span>
            </label>
          ))}
          <FieldErrors id={`${id}-roles-errors`} errors={errors("roles")} />
        </fieldset>
        <fieldset className="checks">
          <legend>Groups</legend>
          {groups.length === 0 ? <p className="muted">No groups yet.</p> : null}
          {groups.map((group) => (
            <label key={group.id}>
              <input type="checkbox" name="groupIds" value={group.id} defaultChecked={values.groupIds.includes(group.id)} /> {group.name}
            </label>
          ))}
          <FieldErrors id={`${id}-groups-errors`} errors={errors("groupIds")} />
        </fieldset>
        <div>
          <button type="submit" className="primary" disabled={pending}>
            {pending ? "Adding…" : "Add and make an invite link"}
          </button>
        </div>
      </form>
    </>
  );
}
