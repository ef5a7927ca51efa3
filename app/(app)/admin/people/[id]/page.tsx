import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { ROLE_CHOICES } from "@/components/person-forms-state";
import { ReinviteForm } from "@/components/reinvite-form";
import { getDb } from "@/lib/database";
import { readPersonDetail } from "@/lib/people";
import { describePersonChange } from "@/lib/person-changes";
import { formatDuration, formatUtc } from "@/lib/sla-clock";
import { requirePageUser } from "@/lib/server/session";
import { changeGroupsAction, changeRolesAction, deactivatePersonAction, inviteAgainAction, reactivatePersonAction } from "../actions";

export const metadata: Metadata = { title: "Person" };

export default async function PersonPage({ params }: { params: Promise<{ id: string }> }) {
  const admin = await requirePageUser(["admin"]);
  const detail = await readPersonDetail(await getDb(), (await params).id);
  if (!detail) notFound();
  const { person, groups, allGroups, changes, openWaits } = detail;
  const now = new Date().getTime();
  const memberOf = new Set(groups.map((group) => group.id));
  const yourself = person.id === admin.id;
  return (
    <section className="person-sections">
      <div>
        <p className="muted">
          <Link href="/admin">Admin</Link> / <Link href="/admin/people">People</Link> / {person.name}
        </p>
        <h1>{person.name}</h1>
        <p>
          {person.email}{" "}
          {person.deactivatedAt ? (
            <span className="badge status-failed">Deactivated</span>
          ) : person.away ? (
            <span className="badge amber">Away</span>
          ) : (
            <span className="badge">Active</span>
          )}
        </p>
        <p className="muted">
          Last signed in:{" "}
          {person.lastSignedInAt ? `${formatUtc(person.lastSignedInAt)} (${formatDuration(now - person.lastSignedInAt.getTime())} ago)` : "never"}.{" "}
          {person.passwordHash ? "Has a password." : "Has no password yet."}
        </p>
      </div>

      <section aria-labelledby="roles-heading">
        <h2 id="roles-heading">Roles</h2>
        <ActionForm action={changeRolesAction} hidden={{ personId: person.id }} submitLabel="Save roles" pendingLabel="Saving…" className="person-form">
          <fieldset className="checks">
            <legend className="visually-hidden">Roles of {person.name}</legend>
            {ROLE_CHOICES.map((role) => (
              <label key={role.value}>
                <input type="checkbox" name="roles" value={role.value} defaultChecked={person.roles.includes(role.value)} /> {role.label}{" "}
                <span className="muted">— {role.hint}</span>
              </label>
            ))}
          </fieldset>
        </ActionForm>
      </section>

      <section aria-labelledby="groups-heading">
        <h2 id="groups-heading">Groups</h2>
        {allGroups.length === 0 ? (
          <p className="muted">
            No groups yet: make one on <Link href="/admin/groups">Groups</Link>.
          </p>
        ) : (
          <ActionForm action={changeGroupsAction} hidden={{ personId: person.id }} submitLabel="Save groups" pendingLabel="Saving…" className="person-form">
            <fieldset className="checks">
              <legend className="visually-hidden">Groups of {person.name}</legend>
              {allGroups.map((group) => (
                <label key={group.id}>
                  <input type="checkbox" name="groupIds" value={group.id} defaultChecked={memberOf.has(group.id)} /> {group.name}
                </label>
              ))}
            </fieldset>
          </ActionForm>
        )}
      </section>

      <section aria-labelledby="waits-heading">
        <h2 id="waits-heading">Open waits assigned to {person.name}</h2>
        {openWaits.length === 0 ? (
          <p className="muted">Nothing is waiting on {person.name}.</p>
        ) : (
          <>
            <ul data-testid="person-open-waits">
              {openWaits.map((wait) => (
                <li key={wait.id}>
                  {wait.questionId ? <Link href={`/questions/${wait.questionId}`}>{wait.headline?.trim() || `${wait.workflow} wait`}</Link> : wait.headline?.trim() || `${wait.workflow} wait`}{" "}
                  <span className="muted">
                    open {formatDuration(now - wait.openedAt.getTime())}
                    {wait.dueAt ? `, due ${formatUtc(wait.dueAt)}` : ""}
                  </span>
                </li>
              ))}
            </ul>
            <p>
              <Link href={`/admin/sla?assignee=${person.id}`}>Reassign them on the SLA page</Link>
              {person.deactivatedAt ? ": nobody will answer them while " + person.name + " is deactivated." : "."}
            </p>
          </>
        )}
      </section>

      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite link</h2>
        <p className="muted">A new one-time link lets {person.name} set a {person.passwordHash ? "new " : ""}password; any earlier link stops working.</p>
        {person.deactivatedAt ? <p className="muted">Reactivate {person.name} first.</p> : <ReinviteForm personId={person.id} action={inviteAgainAction} />}
      </section>

      <section aria-labelledby="access-heading">
        <h2 id="access-heading">{person.deactivatedAt ? "Reactivate" : "Deactivate"}</h2>
        {person.deactivatedAt ? (
          <>
            <p>
              Deactivated {formatUtc(person.deactivatedAt)}. Reactivating lets {person.name} sign in again; their earlier sessions and personal tokens stay ended.
            </p>
            <ActionForm action={reactivatePersonAction} hidden={{ personId: person.id }} submitLabel={`Reactivate ${person.name}`} pendingLabel="Reactivating…" />
          </>
        ) : (
          <>
            <p>
              {yourself ? "You will be" : `${person.name} will be`} signed out everywhere at once and unable to sign in, and their personal tokens revoked; their open waits stay open until reassigned.
            </p>
            <ActionForm action={deactivatePersonAction} hidden={{ personId: person.id }} submitLabel={`Deactivate ${person.name}`} pendingLabel="Deactivating…" buttonClassName="secondary danger" />
          </>
        )}
      </section>

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        {changes.length === 0 ? (
          <p className="muted">No changes recorded.</p>
        ) : (
          <ol className="history" data-testid="person-history">
            {changes.map((change) => (
              <li key={change.id}>
                <time dateTime={change.at.toISOString()}>{formatUtc(change.at)}</time>
                {describePersonChange(change)} <span className="muted">— {change.byName ?? (change.byId ? "someone since removed" : "Parley")}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}
