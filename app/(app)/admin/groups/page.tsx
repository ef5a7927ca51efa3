import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/action-form";
import { CreateGroupForm } from "@/components/create-group-form";
import { getDb } from "@/lib/database";
import { GROUP_NAME_MAX, listGroupsAndMembers } from "@/lib/groups";
import { listPeople } from "@/lib/people";
import { requirePageUser } from "@/lib/server/session";
import { addGroupMemberAction, createGroupAction, deleteGroupAction, removeGroupMemberAction } from "./actions";

export const metadata: Metadata = { title: "Groups" };

export default async function GroupsPage() {
  await requirePageUser(["admin"]);
  const db = await getDb();
  const [groups, people] = [await listGroupsAndMembers(db), await listPeople(db)];
  return (
    <section>
      <p className="muted">
        <Link href="/admin">Admin</Link> / Groups
      </p>
      <h1>Groups</h1>
      <p>Teams people are asked as, e.g. finance or on-call: a question put to a group is for any of its members.</p>
      <h2>New group</h2>
      <CreateGroupForm nameMaxLength={GROUP_NAME_MAX} action={createGroupAction} />
      <h2>Groups and members</h2>
      {groups.length === 0 ? <p className="empty muted">No groups yet.</p> : null}
      {groups.map((group) => {
        const members = new Set(group.members.map((member) => member.id));
        const others = people.filter((person) => !members.has(person.id) && !person.deactivatedAt);
        return (
          <section key={group.id} className="group-card" aria-labelledby={`group-${group.id}`} data-testid="group">
            <h3 id={`group-${group.id}`}>{group.name}</h3>
            {group.members.length === 0 ? <p className="muted">No members yet.</p> : null}
            <ul className="group-members">
              {group.members.map((member) => (
                <li key={member.id}>
                  <Link href={`/admin/people/${member.id}`}>{member.name}</Link>
                  {member.deactivated ? <span className="badge status-failed">Deactivated</span> : null}
                  <ActionForm
                    action={removeGroupMemberAction}
                    hidden={{ groupId: group.id, userId: member.id }}
                    submitLabel="Remove"
                    pendingLabel="Removing…"
                    buttonLabel={`Remove ${member.name} from ${group.name}`}
                    buttonClassName="secondary small"
                  />
                </li>
              ))}
            </ul>
            {others.length > 0 ? (
              <ActionForm action={addGroupMemberAction} hidden={{ groupId: group.id }} submitLabel="Add" pendingLabel="Adding…" buttonLabel={`Add to ${group.name}`}>
                <label className="visually-hidden" htmlFor={`add-${group.id}`}>
                  Person to add to {group.name}
                </label>
                <select id={`add-${group.id}`} name="userId" defaultValue="">
                  <option value="" disabled>
                    Choose a person…
                  </option>
                  {others.map((person) => (
                    <option key={person.id} value={person.id}>
                      {person.name} ({person.email})
                    </option>
                  ))}
                </select>
              </ActionForm>
            ) : null}
            <ActionForm
              action={deleteGroupAction}
              hidden={{ groupId: group.id }}
              submitLabel="Delete group"
              pendingLabel="Deleting…"
              buttonLabel={`Delete group ${group.name}`}
              buttonClassName="secondary small danger"
            />
          </section>
        );
      })}
    </section>
  );
}
