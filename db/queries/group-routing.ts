import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../client";
import { groupMembers, groups, users } from "../schema";
import { bareName } from "./read-aliases";
import { renderedOnce, schemaSql } from "./statement-parts";

/** The people, delegates, groups and memberships these statements name by alias. */
const u = alias(users, "u");
const d = alias(users, "d");
const g = alias(groups, "g");
const m = alias(groupMembers, "m");

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

/** What {@link findPeopleForRouting} reads of each person, rendered once. */
const PEOPLE_FOR_ROUTING = renderedOnce(sql`select ${u.id} as id, ${u.away} as away, ${u.deactivatedAt} is not null as deactivated,
    case when ${u.away} and not ${d.away} and ${d.deactivatedAt} is null then ${d.id} end as present_delegate_id
  from ${users} ${u} left join ${users} ${d} on ${d.id} = ${u.delegateId}`);

/** These people with the delegate each away one can hand a question to, in one query (unknown ids are left out). */
export async function findPeopleForRouting(db: Db, ids: readonly string[]): Promise<RoutedPerson[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string; away: boolean; deactivated: boolean; present_delegate_id: string | null }>(
    db,
    // A list, not `= any($1::uuid[])`: PostgreSQL keeps a generic plan for the list's statement, and plans the array's anew on every call.
    schemaSql`${PEOPLE_FOR_ROUTING} where ${u.id} in (${sql.join([...new Set(ids)].map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
  return rows.map((row) => ({ id: row.id, away: row.away, deactivated: row.deactivated, presentDelegateId: row.present_delegate_id }));
}

/** Groups with their members counted: those named in `where`, by name. */
async function countedGroups(db: Db, where: ReturnType<typeof sql>): Promise<RoutedGroup[]> {
  const rows = await queryRows<{ id: string; name: string; members: number | string; present: number | string; away: number | string }>(
    db,
    sql`select ${g.id} as id, ${g.name} as name, count(${u.id}) as members,
               count(${u.id}) filter (where not ${u.away} and ${u.deactivatedAt} is null) as present,
               count(${u.id}) filter (where ${u.away} and ${u.deactivatedAt} is null) as away
          from ${groups} ${g}
          left join ${groupMembers} ${m} on ${m.groupId} = ${g.id}
          left join ${users} ${u} on ${u.id} = ${m.userId}
         ${where}
         group by ${g.id}, ${g.name} order by ${g.name}`,
  );
  return rows.map((row) => ({ id: row.id, name: row.name, members: Number(row.members), present: Number(row.present), away: Number(row.away) }));
}

/** The groups with these names (compared as stored: trimmed, lower-cased), with their members counted; unknown names are left out. */
export async function findGroupsForRouting(db: Db, names: readonly string[]): Promise<RoutedGroup[]> {
  if (names.length === 0) return [];
  const wanted = [...new Set(names.map((name) => name.trim().toLowerCase()))];
  return countedGroups(db, sql`where ${g.name} in (${sql.join(wanted.map((name) => sql`${name}`), sql`, `)})`);
}

/** The members of these groups now, once each. */
export async function membersOf(db: Db, groupIds: readonly string[]): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`select distinct ${groupMembers.userId} as user_id from ${groupMembers} where ${groupMembers.groupId} in (${sql.join([...new Set(groupIds)].map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
  return rows.map((row) => row.user_id);
}

/** The members of a group who can take a question now (neither away nor deactivated). */
export async function presentMembersOf(db: Db, groupId: string): Promise<string[]> {
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`select ${m.userId} as user_id from ${groupMembers} ${m} join ${users} ${u} on ${u.id} = ${m.userId}
         where ${m.groupId} = ${groupId}::uuid and not ${u.away} and ${u.deactivatedAt} is null`,
  );
  return rows.map((row) => row.user_id);
}

/** Every group by name, with how many members it has and how many can take a question now. */
export function listGroupsForRouting(db: Db): Promise<RoutedGroup[]> {
  return countedGroups(db, sql``);
}

/** The group a seed `made` (a CTE of its row). */
const made = alias(groups, "made");

/** Creates these groups (by name) with these members (by email) where they are missing; existing ones are left as they are. */
export async function seedGroups(db: Db, members: Readonly<Record<string, readonly string[]>>): Promise<void> {
  for (const [name, emails] of Object.entries(members)) {
    await queryRows(
      db,
      sql`with ${made} as (insert into ${groups} (${bareName(groups.name)}) values (${name}) on conflict (${bareName(groups.name)}) do nothing returning ${groups.id})
          insert into ${groupMembers} (${bareName(groupMembers.groupId)}, ${bareName(groupMembers.userId)})
          select ${made.id}, ${users.id} from ${made} join ${users} on ${users.email} in (${sql.join(emails.map((email) => sql`${email}`), sql`, `)})
          on conflict do nothing`,
    );
  }
}
