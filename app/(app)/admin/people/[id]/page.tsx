import type { Metadata } from "next";
import { BulkWaitsForm } from "@/components/bulk-waits-form";
import { LocalTime } from "@/components/local-time";
import { When } from "@/components/when";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { ROLE_CHOICES } from "@/components/person-forms-state";
import { ReinviteForm } from "@/components/reinvite-form";
import { getDb } from "@/lib/database";
import { listPossibleDelegates, readPersonDetail } from "@/lib/people";
import { describePersonChange } from "@/lib/person-changes";
import { formatDuration } from "@/lib/sla-clock";
import { requirePageUser } from "@/lib/server/session";
import { PersonAwayForm } from "@/components/person-away-form";
import { getRegistry } from "@/lib/registry/configured";
import { bulkWaitsAction, findPeopleToReassignToAction, setPersonAwayAction } from "../../actions";
import { changeGroupsAction, changeRolesAction, deactivatePersonAction, inviteAgainAction, reactivatePersonAction, setPersonDelegateAction } from "../actions";

export const metadata: Metadata = { title: "Person" };

/** The form the ticked waits belong to (their checkboxes sit in the list, apart from it). */
const BULK_FORM = "person-bulk-waits";

export default async function PersonPage({ params }: { params: Promise<{ id: string }> }) {
  const admin = await requirePageUser(["admin"]);
  const db = await getDb();
  const detail = await readPersonDetail(db, (await params).id);
  if (!detail) notFound();
  const { person, groups, allGroups, changes, openWaits } = detail;
  // Away is for people who are asked questions (and anyone still marked away, to mark them back).
  const answers = person.roles.includes("assignee");
  const delegates = answers ? await listPossibleDelegates(db, person.id) : [];
  const registry = getRegistry();
  const waitName = (wait: (typeof openWaits)[number]) => wait.headline?.trim() || `A wait of ${registry.entry(wait.workflow)?.label ?? "a flow"}`;
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
          {person.lastSignedInAt ? <When at={person.lastSignedInAt} now={new Date(now)} /> : "never"}.{" "}
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

      {answers || person.away ? (
        <section aria-labelledby="away-heading">
          <h2 id="away-heading">Away</h2>
          <PersonAwayForm userId={person.id} name={person.name} away={person.away} action={setPersonAwayAction} />
          {answers ? (
            <ActionForm action={setPersonDelegateAction} hidden={{ personId: person.id }} submitLabel="Save" pendingLabel="Saving…" className="delegate-form">
              <label className="field" htmlFor="delegateId">
                While {person.name} is away, their new questions go to
              </label>
              <select id="delegateId" name="delegateId" defaultValue={person.delegateId ?? ""}>
                <option value="">Nobody: askers are told they are away</option>
                {delegates.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.name}
                    {candidate.away ? " (away too)" : ""}
                  </option>
                ))}
              </select>
            </ActionForm>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="waits-heading">
        <h2 id="waits-heading">Open waits assigned to {person.name}</h2>
        <BulkWaitsForm action={bulkWaitsAction} findPeople={findPeopleToReassignToAction} formId={BULK_FORM} nothingToTick={openWaits.length === 0} />
        {openWaits.length === 0 ? (
          <p className="muted">Nothing is waiting on {person.name}.</p>
        ) : (
          <>
            <ul data-testid="person-open-waits" className="person-waits">
              {openWaits.map((wait) => (
                <li key={wait.id}>
                  <input type="checkbox" name="slotId" value={wait.id} form={BULK_FORM} aria-label={`Tick “${waitName(wait)}”`} />{" "}
                  {wait.questionId ? <Link href={`/questions/${wait.questionId}`}>{waitName(wait)}</Link> : waitName(wait)}{" "}
                  <span className="muted">
                    open {formatDuration(now - wait.openedAt.getTime())}
                    {wait.dueAt ? (
                      <>
                        , due <LocalTime at={wait.dueAt.toISOString()} />
                      </>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
            <p>
              <Link href={`/admin/sla?assignee=${person.id}`}>See them on the SLA page</Link>
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
              Deactivated <LocalTime at={person.deactivatedAt.toISOString()} />. Reactivating lets {person.name} sign in again; their earlier sessions and personal tokens stay ended.
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
        <p className="muted small">
          What was changed about {person.name}. What they did — answers, declines, questions taken, runs started — is in the{" "}
          <Link href={`/admin/audit?who=${person.id}`}>audit log</Link>.
        </p>
        {changes.length === 0 ? (
          <p className="muted">No changes recorded.</p>
        ) : (
          <ol className="history" data-testid="person-history">
            {changes.map((change) => (
              <li key={change.id}>
                <LocalTime at={change.at.toISOString()} />
                {describePersonChange(change)} <span className="muted">— {change.byName ?? (change.byId ? "someone since removed" : "Parley")}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}
