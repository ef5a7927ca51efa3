import { and, asc, eq, getTableColumns, inArray, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, isUniqueViolation, queryRows, toDate } from "../client";
import { auditEvents, type Group, groupMembers, groups, users } from "../schema";
import { insertAuditEvents } from "./audit-events";
import { bareName, columnList } from "./read-aliases";
import type { UserCursor } from "./users";

export type { Group };

/** A rename's names: the group `g`, as it was `before` and as `renamed` (CTEs of its row). */
const g = alias(groups, "g");
const before = alias(groups, "before");
const renamed = alias(groups, "renamed");

/** A member of a group, as the groups pages list them. */
export interface GroupMember {
  id: string;
  name: string;
  email: string;
  deactivated: boolean;
}

/** A group with how many members it has and its first members by name. */
export interface GroupWithMembers extends Group {
  memberCount: number;
  /** The first members by name (then id): all of them when the group is small. */
  members: GroupMember[];
}

const memberColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  deactivated: sql<boolean>`(${users.deactivatedAt} is not null)`.mapWith(Boolean),
};

/**
 * Every group by name, with its member count and its first `membersPerGroup` members by name — two
 * queries however many groups there are, reading memberships but never listing more than that many
 * members of any group.
 */
export async function listGroupsWithFirstMembers(db: Db, membersPerGroup: number): Promise<GroupWithMembers[]> {
  const all = await db
    .select({ ...getTableColumns(groups), memberCount: sql<number>`(select count(*) from ${groupMembers} where ${groupMembers.groupId} = ${groups.id})`.mapWith(Number) })
    .from(groups)
    .orderBy(asc(groups.name));
  if (all.length === 0 || membersPerGroup <= 0) return all.map((group) => ({ ...group, members: [] }));
  const ranked = db
    .select({
      groupId: groupMembers.groupId,
      id: users.id,
      name: users.name,
      email: users.email,
      deactivatedAt: users.deactivatedAt,
      place: sql<number>`row_number() over (partition by ${groupMembers.groupId} order by ${users.name}, ${users.id})`.as("place"),
    })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .as("ranked");
  const first = await db.select().from(ranked).where(lte(ranked.place, membersPerGroup)).orderBy(asc(ranked.place));
  const byGroup = new Map<string, GroupMember[]>();
  for (const { groupId, id, name, email, deactivatedAt } of first) byGroup.set(groupId, [...(byGroup.get(groupId) ?? []), { id, name, email, deactivated: deactivatedAt !== null }]);
  return all.map((group) => ({ ...group, members: byGroup.get(group.id) ?? [] }));
}

/** How many members a group has. */
export async function countGroupMembers(db: Db, groupId: string): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(groupMembers).where(eq(groupMembers.groupId, groupId));
  return row?.count ?? 0;
}

/** A page of a group's members by name, then id, after `after` when given; at most `limit`. */
export async function listGroupMembersByName(db: Db, options: { groupId: string; after?: UserCursor; limit: number }): Promise<GroupMember[]> {
  return db
    .select(memberColumns)
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(and(eq(groupMembers.groupId, options.groupId), options.after ? sql`(${users.name}, ${users.id}) > (${options.after.name}, ${options.after.id}::uuid)` : undefined))
    .orderBy(asc(users.name), asc(users.id))
    .limit(options.limit);
}

/** Which of these people are in the group (one query by its primary key). */
export async function listGroupMemberIdsAmong(db: Db, groupId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: groupMembers.userId })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.userId, [...new Set(userIds)])));
  return new Set(rows.map((row) => row.userId));
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
export async function insertGroup(db: Db, name: string, record: { by: string | null; at: Date }): Promise<Group | undefined> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [group] = await tx.insert(groups).values({ name }).onConflictDoNothing({ target: groups.name }).returning();
    if (group) {
      await insertAuditEvents(tx, [{ at: record.at, action: "group-created", category: "people", actorId: record.by, groupId: group.id, detail: { name } }]);
    }
    return group;
  });
}

/**
 * Renames a group: the renamed group, `taken` when another group has the name already (the unique
 * index on names decides, so two renames at once cannot both take it), or undefined when there is
 * no such group.
 */
export async function renameGroupRow(db: Db, id: string, name: string, record: { by: string | null; at: Date }): Promise<Group | "taken" | undefined> {
  try {
    // One statement: the rename and its line in the audit log, with the name it had.
    const rows = await queryRows<{ id: string; name: string; created_at: string | Date }>(
      db,
      sql`with ${before} as (
            select ${groups.id}, ${groups.name} from ${groups} where ${groups.id} = ${id}::uuid for update
          ), ${renamed} as (
            update ${groups} ${g} set ${bareName(groups.name)} = ${name} from ${before} where ${g.id} = ${before.id}
            returning ${g.id}, ${g.name}, ${g.createdAt}, ${before.name} as was
          ), audited as (
            insert into ${auditEvents} (${columnList([auditEvents.at, auditEvents.action, auditEvents.category, auditEvents.actorId, auditEvents.groupId, auditEvents.detail])})
            select ${record.at.toISOString()}::timestamptz, 'group-renamed', 'people', ${record.by}::uuid, ${renamed.id}, jsonb_build_object('from', ${renamed}.was, 'to', ${renamed.name})
            from ${renamed} where ${renamed}.was is distinct from ${renamed.name}
          )
          select ${renamed.id} as id, ${renamed.name} as name, ${renamed.createdAt} as created_at from ${renamed}`,
    );
    const row = rows[0];
    return row ? { id: row.id, name: row.name, createdAt: toDate(row.created_at) } : undefined;
  } catch (error) {
    if (isUniqueViolation(error)) return "taken";
    throw error;
  }
}

/** Deletes a group (its memberships go with it), recorded for the audit log; the deleted group, or undefined when there was none. */
export async function deleteGroup(db: Db, id: string, record: { by: string | null; at: Date; members: number }): Promise<Group | undefined> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [group] = await tx.delete(groups).where(eq(groups.id, id)).returning();
    if (group) {
      await insertAuditEvents(tx, [
        { at: record.at, action: "group-deleted", category: "people", actorId: record.by, groupId: group.id, detail: { name: group.name, members: record.members } },
      ]);
    }
    return group;
  });
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
