import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { FindPeopleToAdd } from "@/components/find-people-to-add";
import { getDb } from "@/lib/database";
import { GROUP_MEMBERS_PAGE_SIZE, GROUP_NAME_MAX, PEOPLE_SEARCH_LIMIT, readGroupMembers, searchPeopleToAdd } from "@/lib/groups";
import { requirePageUser } from "@/lib/server/session";
import { addGroupMemberAction, deleteGroupAction, removeGroupMemberAction, renameGroupAction } from "../actions";
import { oneParam } from "../search-params";

export const metadata: Metadata = { title: "Group" };

export default async function GroupPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageUser(["admin"]);
  const [{ id }, query] = [await params, await searchParams];
  const db = await getDb();
  const after = oneParam(query.after);
  const page = await readGroupMembers(db, id, after ? { after } : {});
  if (!page) notFound();
  const { group, memberCount, members, next, cursorIgnored } = page;
  const found = await searchPeopleToAdd(db, { query: oneParam(query.q), groupId: group.id });
  const path = `/admin/groups/${group.id}`;
  const paged = Boolean(after) && !cursorIgnored;
  return (
    <section>
      <p className="muted">
        <Link href="/admin">Admin</Link> / <Link href="/admin/groups">Groups</Link> / {group.name}
      </p>
      <h1>{group.name}</h1>
      <p>
        {memberCount === 1 ? "1 member" : `${memberCount} members`}. A question put to {group.name} is for any of them.
      </p>
      <details className="rename-group">
        <summary>Rename {group.name}</summary>
        <ActionForm action={renameGroupAction} hidden={{ groupId: group.id }} submitLabel="Rename" pendingLabel="Renaming…" className="person-form">
          <label className="field" htmlFor="group-name">
            New name
          </label>
          <input id="group-name" name="name" type="text" className="question-input" defaultValue={group.name} maxLength={GROUP_NAME_MAX} required aria-describedby="group-name-hint" />
          <p id="group-name-hint" className="muted small">
            Trimmed and lower-cased. Questions already put to {group.name} stay with it; agents and flows that ask it by name ask by the new name from now on.
          </p>
        </ActionForm>
      </details>
      <FindPeopleToAdd found={found} path={path} limit={PEOPLE_SEARCH_LIMIT} action={addGroupMemberAction} />
      <h2 id="members-heading">Members</h2>
      {cursorIgnored ? (
        <p role="status" className="muted">
          That page of members could not be found, so this is the first page.
        </p>
      ) : null}
      {members.length === 0 ? (
        <p className="empty muted">{paged ? "No more members." : "No members yet."}</p>
      ) : (
        <table className="table stacks" aria-labelledby="members-heading">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Status</th>
              <th>
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.id} data-testid="group-member">
                <td>
                  <Link href={`/admin/people/${member.id}`}>{member.name}</Link>
                </td>
                <td data-label="Email">{member.email}</td>
                <td data-label="Status">{member.deactivated ? <span className="badge status-failed">Deactivated</span> : <span className="badge">Active</span>}</td>
                <td>
                  <ActionForm
                    action={removeGroupMemberAction}
                    hidden={{ groupId: group.id, userId: member.id }}
                    submitLabel="Remove"
                    pendingLabel="Removing…"
                    buttonLabel={`Remove ${member.name} from ${group.name}`}
                    buttonClassName="secondary small"
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {paged || next ? (
        <nav className="inbox-meta" aria-label="Pages of members">
          <span>
            {paged ? (
              <>
                {members.length} more of {memberCount} · <Link href={path}>back to the first {GROUP_MEMBERS_PAGE_SIZE}</Link>
              </>
            ) : (
              `The first ${members.length} of ${memberCount}, by name`
            )}
          </span>
          {next ? <Link href={`${path}?after=${next}`}>Next {GROUP_MEMBERS_PAGE_SIZE} →</Link> : null}
        </nav>
      ) : null}
      <h2>Delete the group</h2>
      <details className="confirm-step">
        <summary>Delete {group.name}…</summary>
        <div className="confirm-step-body">
          <p>
            {memberCount === 0 ? "It has no members." : memberCount === 1 ? "Its member leaves it (their page records that)." : `Its ${memberCount} members leave it (each one’s page records that).`} A
            flow that asks {group.name} no longer finds it. This cannot be undone.
          </p>
          <ActionForm action={deleteGroupAction} hidden={{ groupId: group.id }} submitLabel={`Yes, delete ${group.name}`} pendingLabel="Deleting…" buttonClassName="secondary danger" />
        </div>
      </details>
    </section>
  );
}
