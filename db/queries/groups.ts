import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { type Group, groupMembers, groups, users } from "../schema";

export type { Group };

/** A group with its members (by name), as the groups page lists it. */
export interface GroupWithMembers extends Group {
  members: { id: string; name: string; email: string; deactivated: boolean }[];
}

/** Every group, by name, with its members by name — two queries however many groups there are. */
export async function listGroupsWithMembers(db: Db): Promise<GroupWithMembers[]> {
  const all = await db.select().from(groups).orderBy(asc(groups.name));
  if (all.length === 0) return [];
  const members = await db
    .select({ groupId: groupMembers.groupId, id: users.id, name: users.name, email: users.email, deactivatedAt: users.deactivatedAt })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .orderBy(asc(users.name));
  return all.map((group) => ({
    ...group,
    members: members
      .filter((member) => member.groupId === group.id)
      .map((member) => ({ id: member.id, name: member.name, email: member.email, deactivated: member.deactivatedAt !== null })),
  }));
}

/** Every group, by name. */
export async function listGroups(db: Db): Promise<Group[]> {
  return db.select().from(groups).orderBy(asc(groups.name));
}

export async function findGroupById(db: Db, id: string): Promise<Group | undefined> {
  const [group] = await db.select().from(groups).where(eq(groups.id, id)).limit(1);
  return group;
}

/** These groups, in one query (unknown ids are left out). */
export async function findGroupsByIds(db: Db, ids: readonly string[]): Promise<Group[]> {
  if (ids.length === 0) return [];
  return db.select().from(groups).where(inArray(groups.id, [...new Set(ids)]));
}

/** Makes a group; undefined when the (normalised) name is taken. */
export async function insertGroup(db: Db, name: string): Promise<Group | undefined> {
  const [group] = await db.insert(groups).values({ name }).onConflictDoNothing({ target: groups.name }).returning();
  return group;
}

/** Deletes a group (its memberships go with it); the deleted group, or undefined when there was none. */
export async function deleteGroup(db: Db, id: string): Promise<Group | undefined> {
  const [group] = await db.delete(groups).where(eq(groups.id, id)).returning();
  return group;
}

/** The members of a group: their ids. */
export async function listGroupMemberIds(db: Db, groupId: string): Promise<string[]> {
  const rows = await db.select({ userId: groupMembers.userId }).from(groupMembers).where(eq(groupMembers.groupId, groupId));
  return rows.map((row) => row.userId);
}

/** The groups each of these people is in, by person id (people in none are absent). */
export async function listGroupsOfPeople(db: Db, userIds: readonly string[]): Promise<Map<string, Group[]>> {
  const byPerson = new Map<string, Group[]>();
  if (userIds.length === 0) return byPerson;
  const rows = await db
    .select({ userId: groupMembers.userId, group: groups })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(inArray(groupMembers.userId, [...new Set(userIds)]))
    .orderBy(asc(groups.name));
  for (const row of rows) byPerson.set(row.userId, [...(byPerson.get(row.userId) ?? []), row.group]);
  return byPerson;
}

/** Puts people in groups; returns the memberships that are new (those already there are left as they were). */
export async function insertGroupMembers(db: Db, memberships: readonly { groupId: string; userId: string }[]): Promise<{ groupId: string; userId: string }[]> {
  if (memberships.length === 0) return [];
  return db
    .insert(groupMembers)
    .values([...memberships])
    .onConflictDoNothing()
    .returning({ groupId: groupMembers.groupId, userId: groupMembers.userId });
}

/** Takes a person out of groups; returns the memberships that were there and are now gone. */
export async function deleteGroupMembers(db: Db, userId: string, groupIds: readonly string[]): Promise<{ groupId: string; userId: string }[]> {
  if (groupIds.length === 0) return [];
  return db
    .delete(groupMembers)
    .where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, [...groupIds])))
    .returning({ groupId: groupMembers.groupId, userId: groupMembers.userId });
}
