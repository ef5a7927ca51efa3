import type { Db } from "@/db/client";
import { groupNamesByPerson, listGroupsForRouting } from "@/db/queries/group-routing";
import { listUsers, setUserAway } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { publishLiveEvent } from "@/lib/live-events";

/** Every person (the users table, by name), as the admin pages list them. */
export function listPeople(db: Db): Promise<User[]> {
  return listUsers(db);
}

/**
 * Marks a person away (or back) and tells their open screens and every admin's. Returns the person
 * as stored, or undefined when there is no such person.
 */
export async function changeAway(db: Db, userId: string, away: boolean): Promise<User | undefined> {
  return db.transaction(async (tx) => {
    const person = await setUserAway(tx, userId, away);
    if (person) {
      await publishLiveEvent(tx, { kind: "person-away-changed", audience: { userIds: [person.id], roles: ["admin"] } });
    }
    return person;
  });
}

/** Someone an agent may ask, as `list_people` shows them. */
export interface AskablePerson {
  name: string;
  email: string;
  groups: string[];
  away: boolean;
}

/**
 * Who an ask may go to: the active people who answer questions (with their groups and whether they
 * are away) and the groups, filtered by part of a name, email or group name.
 */
export async function listAskable(db: Db, query: string): Promise<{ people: AskablePerson[]; groups: { name: string; members: number; present: number }[] }> {
  const wanted = query.trim().toLowerCase();
  const everyone = (await listUsers(db)).filter((user) => user.roles.includes("assignee") && !user.deactivatedAt);
  const groupsOf = await groupNamesByPerson(db, everyone.map((user) => user.id));
  const people = everyone
    .map((user) => ({ name: user.name, email: user.email, groups: groupsOf.get(user.id) ?? [], away: user.away }))
    .filter((person) => wanted === "" || person.name.toLowerCase().includes(wanted) || person.email.includes(wanted) || person.groups.some((name) => name.includes(wanted)));
  const groups = (await listGroupsForRouting(db))
    .filter((group) => wanted === "" || group.name.includes(wanted))
    .map(({ name, members, present }) => ({ name, members, present }));
  return { people, groups };
}
