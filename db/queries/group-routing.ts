import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";

/** A group as an ask is routed to it: who is in it, and how many of them can take a question now. */
export interface RoutedGroup {
  id: string;
  name: string;
  members: number;
  /** Members neither away nor deactivated. */
  present: number;
  /** Members away (and not deactivated). */
  away: number;
}

/** A person as a question is routed to them: whether they can take it, and who takes it in their place. */
export interface RoutedPerson {
  id: string;
  away: boolean;
  deactivated: boolean;
  /** The delegate they named, when they are away and that delegate can take a question now (neither away nor deactivated). */
  presentDelegateId: string | null;
}

/** These people with the delegate each away one can hand a question to, in one query (unknown ids are left out). */
export async function findPeopleForRouting(db: Db, ids: readonly string[]): Promise<RoutedPerson[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string; away: boolean; deactivated: boolean; present_delegate_id: string | null }>(
    db,
    sql`select u.id, u.away, u.deactivated_at is not null as deactivated,
               case when u.away and not d.away and d.deactivated_at is null then d.id end as present_delegate_id
          from users u left join users d on d.id = u.delegate_id
         where u.id in (${sql.join([...new Set(ids)].map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
  return rows.map((row) => ({ id: row.id, away: row.away, deactivated: row.deactivated, presentDelegateId: row.present_delegate_id }));
}

/** Groups with their members counted: those named in `where`, by name. */
async function countedGroups(db: Db, where: ReturnType<typeof sql>): Promise<RoutedGroup[]> {
  const rows = await queryRows<{ id: string; name: string; members: number | string; present: number | string; away: number | string }>(
    db,
    sql`select g.id, g.name, count(u.id) as members,
               count(u.id) filter (where not u.away and u.deactivated_at is null) as present,
               count(u.id) filter (where u.away and u.deactivated_at is null) as away
          from groups g
          left join group_members m on m.group_id = g.id
          left join users u on u.id = m.user_id
         ${where}
         group by g.id, g.name order by g.name`,
  );
  return rows.map((row) => ({ id: row.id, name: row.name, members: Number(row.members), present: Number(row.present), away: Number(row.away) }));
}

/** The groups with these names (compared as stored: trimmed, lower-cased), with their members counted; unknown names are left out. */
export async function findGroupsForRouting(db: Db, names: readonly string[]): Promise<RoutedGroup[]> {
  if (names.length === 0) return [];
  const wanted = [...new Set(names.map((name) => name.trim().toLowerCase()))];
  return countedGroups(db, sql`where g.name in (${sql.join(wanted.map((name) => sql`${name}`), sql`, `)})`);
}

/** The members of these groups now, once each. */
export async function membersOf(db: Db, groupIds: readonly string[]): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`select distinct user_id from group_members where group_id in (${sql.join([...new Set(groupIds)].map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
  return rows.map((row) => row.user_id);
}

/** The members of a group who can take a question now (neither away nor deactivated). */
export async function presentMembersOf(db: Db, groupId: string): Promise<string[]> {
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`select m.user_id from group_members m join users u on u.id = m.user_id
         where m.group_id = ${groupId}::uuid and not u.away and u.deactivated_at is null`,
  );
  return rows.map((row) => row.user_id);
}

/** Every group by name, with how many members it has and how many can take a question now. */
export function listGroupsForRouting(db: Db): Promise<RoutedGroup[]> {
  return countedGroups(db, sql``);
}

/** Creates these groups (by name) with these members (by email) where they are missing; existing ones are left as they are. */
export async function seedGroups(db: Db, members: Readonly<Record<string, readonly string[]>>): Promise<void> {
  for (const [name, emails] of Object.entries(members)) {
    await queryRows(
      db,
      sql`with made as (insert into groups (name) values (${name}) on conflict (name) do nothing returning id)
          insert into group_members (group_id, user_id)
          select made.id, users.id from made join users on users.email in (${sql.join(emails.map((email) => sql`${email}`), sql`, `)})
          on conflict do nothing`,
    );
  }
}
