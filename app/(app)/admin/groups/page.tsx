import type { Metadata } from "next";
import Link from "next/link";
import { CreateGroupForm } from "@/components/create-group-form";
import { FindPeopleToAdd } from "@/components/find-people-to-add";
import { getDb } from "@/lib/database";
import { GROUP_NAME_MAX, listGroupsAndMembers, PEOPLE_SEARCH_LIMIT, searchPeopleToAdd } from "@/lib/groups";
import { requirePageUser } from "@/lib/server/session";
import { addGroupMemberAction, createGroupAction } from "./actions";
import { oneParam } from "./search-params";

export const metadata: Metadata = { title: "Groups" };

function members(count: number): string {
  return count === 1 ? "1 member" : `${count} members`;
}

export default async function GroupsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser(["admin"]);
  const params = await searchParams;
  const db = await getDb();
  const [groups, found] = await Promise.all([listGroupsAndMembers(db), searchPeopleToAdd(db, { query: oneParam(params.q), groupId: oneParam(params.group) })]);
  return (
    <section>
      <p className="muted">
        <Link href="/admin">Admin</Link> / Groups
      </p>
      <h1>Groups</h1>
      <p>Teams people are asked as, e.g. finance or on-call: a question put to a group is for any of its members.</p>
      <h2>New group</h2>
      <CreateGroupForm nameMaxLength={GROUP_NAME_MAX} action={createGroupAction} />
      {groups.length > 0 ? (
        <FindPeopleToAdd found={found} path="/admin/groups" groups={groups.map(({ id, name }) => ({ id, name }))} limit={PEOPLE_SEARCH_LIMIT} action={addGroupMemberAction} />
      ) : null}
      <h2>Groups and members</h2>
      {groups.length > 0 ? <p className="muted">Open a group to see all its members, remove someone, or delete the group.</p> : null}
      {groups.length === 0 ? <p className="empty muted">No groups yet.</p> : null}
      {groups.map((group) => {
        const more = group.memberCount - group.members.length;
        return (
          <section key={group.id} className="group-card" aria-labelledby={`group-${group.id}`} data-testid="group">
            <h3 id={`group-${group.id}`}>
              {group.name} <span className="muted">· {members(group.memberCount)}</span>
            </h3>
            {group.memberCount === 0 ? (
              <p className="muted">No members yet.</p>
            ) : (
              <p data-testid="group-members">
                {group.members.map((member) => `${member.name}${member.deactivated ? " (deactivated)" : ""}`).join(", ")}
                {more > 0 ? ` and ${more} more` : null}
              </p>
            )}
            <Link href={`/admin/groups/${group.id}`}>{more > 0 ? `See all ${members(group.memberCount)} of ${group.name}` : `Manage ${group.name}`}</Link>
          </section>
        );
      })}
    </section>
  );
}
