import type { Metadata } from "next";
import { ApiKeysTable } from "@/components/api-keys-table";
import { CreateApiKeyForm } from "@/components/create-api-key-form";
import { API_KEY_NAME_MAX, listKeys } from "@/lib/api-keys";
import { getDb } from "@/lib/database";
import { requirePageUser } from "@/lib/server/session";
import { ActionForm } from "@/components/action-form";
import { listPossibleDelegates } from "@/lib/people";
import { createPersonalTokenAction, revokePersonalTokenAction, setMyDelegateAction } from "./actions";

export const metadata: Metadata = { title: "Profile" };

export default async function ProfilePage() {
  const user = await requirePageUser();
  const db = await getDb();
  const tokens = await listKeys(db, "personal", { userId: user.id });
  const answers = user.roles.includes("assignee");
  const delegates = answers ? await listPossibleDelegates(db, user.id) : [];
  const now = new Date();
  return (
    <section className="profile-page">
      <h1>Profile</h1>
      <dl className="facts card-plain">
        <div className="fact">
          <dt>Name</dt>
          <dd>{user.name}</dd>
        </div>
        <div className="fact">
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </div>
        <div className="fact">
          <dt>Roles</dt>
          <dd>{user.roles.length > 0 ? user.roles.join(", ") : <span className="muted">none</span>}</dd>
        </div>
      </dl>
      {answers ? (
        <>
          <h2>While you are away</h2>
          <p>
            When you switch on <strong>Away</strong>, you get no new questions. Name someone to take them instead, or leave it to nobody: then whoever asks is told
            at once that you are away.
          </p>
          <ActionForm action={setMyDelegateAction} hidden={{}} submitLabel="Save" pendingLabel="Saving…" className="delegate-form">
            <label className="field" htmlFor="delegateId">
              My new questions go to
            </label>
            <select id="delegateId" name="delegateId" defaultValue={user.delegateId ?? ""}>
              <option value="">Nobody: askers are told I am away</option>
              {delegates.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                  {person.away ? " (away too)" : ""}
                </option>
              ))}
            </select>
          </ActionForm>
        </>
      ) : null}
      <h2>Tokens for the terminal</h2>
      <p>
        A token lets a program at a terminal read and answer your questions as you. Anything holding it acts as you: make one for each machine, and revoke it
        when that machine no longer needs it.
      </p>
      <CreateApiKeyForm kind="personal" nameMaxLength={API_KEY_NAME_MAX} action={createPersonalTokenAction} />
      <h2>Your tokens</h2>
      <ApiKeysTable keys={tokens} now={now} label="Your tokens" noun="token" revoke={revokePersonalTokenAction} />
    </section>
  );
}
