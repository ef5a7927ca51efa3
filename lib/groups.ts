import { z } from "zod";
import type { Db } from "@/db/client";
import {
  countGroupMembers,
  deleteGroup as deleteGroupRow,
  deleteGroupMembers,
  findGroupById,
  type Group,
  type GroupMember,
  type GroupWithMembers,
  insertGroup,
  insertGroupMembers,
  listGroupMemberIds,
  listGroupMemberIdsAmong,
  listGroupMembersByName,
  listGroups as listGroupRows,
  listGroupsWithFirstMembers,
  renameGroupRow,
} from "@/db/queries/groups";
import { findUserById, listUsersByName } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { recordPersonChanges } from "@/lib/person-changes";
import { isUuid } from "@/lib/ids";
import { publishLiveEvent } from "@/lib/live-events";

export type { Group, GroupMember, GroupWithMembers };

/** The longest group name. */
export const GROUP_NAME_MAX = 64;

const UNPRINTABLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/**
 * A group's name as it is stored and asked by (`group("finance")`, `to: { group: "finance" }`):
 * trimmed, lower-cased, one line of 1–{@link GROUP_NAME_MAX} printable characters.
 */
export const groupNameSchema = z
  .string()
  .transform((name) => name.trim().toLowerCase())
  .pipe(
    z
      .string()
      .min(1, "Give the group a name, e.g. finance or on-call.")
      .max(GROUP_NAME_MAX, `A group's name is at most ${GROUP_NAME_MAX} characters.`)
      .refine((name) => !UNPRINTABLE.test(name), "A group's name is one line of plain text: no control characters."),
  );

/** Every group, by name. */
export function listGroups(db: Db): Promise<Group[]> {
  return listGroupRows(db);
}

/** How many members of each group the groups page names. */
export const GROUP_MEMBERS_SHOWN = 8;

/** How many members one page of a group's members lists. */
export const GROUP_MEMBERS_PAGE_SIZE = 50;

/** The most people one search for someone to add to a group finds. */
export const PEOPLE_SEARCH_LIMIT = 20;

/** The longest search text taken (longer is cut). */
const SEARCH_TEXT_MAX = 200;

/**
 * Every group by name, with its member count and its first `membersPerGroup` members by name
 * (default {@link GROUP_MEMBERS_SHOWN}): a 200-person team is counted, not listed.
 */
export function listGroupsAndMembers(db: Db, options: { membersPerGroup?: number } = {}): Promise<GroupWithMembers[]> {
  return listGroupsWithFirstMembers(db, options.membersPerGroup ?? GROUP_MEMBERS_SHOWN);
}

/** One page of a group's members, by name: see {@link readGroupMembers}. */
export interface GroupMembersPage {
  group: Group;
  memberCount: number;
  members: GroupMember[];
  /** The cursor of the next page (the last member's id), when more members follow. */
  next?: string;
  /** Whether the page asked for was after a cursor that named nobody, so this is the first page. */
  cursorIgnored: boolean;
}

/**
 * A group and one page of its members by name, then id: the first page, or the one after the member
 * whose id is `after` (the `next` of the page before). A cursor that is not a person's id reads the
 * first page. Undefined when there is no such group.
 */
export async function readGroupMembers(db: Db, groupId: string, options: { after?: string; pageSize?: number } = {}): Promise<GroupMembersPage | undefined> {
  const group = isUuid(groupId) ? await findGroupById(db, groupId) : undefined;
  if (!group) return undefined;
  const pageSize = options.pageSize ?? GROUP_MEMBERS_PAGE_SIZE;
  const cursor = options.after && isUuid(options.after) ? await findUserById(db, options.after) : undefined;
  const [memberCount, page] = await Promise.all([
    countGroupMembers(db, group.id),
    listGroupMembersByName(db, { groupId: group.id, after: cursor ? { name: cursor.name, id: cursor.id } : undefined, limit: pageSize + 1 }),
  ]);
  const members = page.slice(0, pageSize);
  return {
    group,
    memberCount,
    members,
    ...(page.length > pageSize ? { next: members.at(-1)!.id } : {}),
    cursorIgnored: Boolean(options.after) && !cursor,
  };
}

/** Someone a search found to add to a group: whether they are in it already. */
export interface PersonToAdd {
  id: string;
  name: string;
  email: string;
  away: boolean;
  inGroup: boolean;
}

/** What a search for people to add to a group found. */
export interface PeopleToAdd {
  /** The search text as it was used (trimmed, cut to 200 characters); empty: nothing was searched. */
  query: string;
  /** The group they would be added to, when one was chosen and exists. */
  group?: Group;
  /** At most {@link PEOPLE_SEARCH_LIMIT} active people whose name or email contains the text, by name. */
  people: PersonToAdd[];
  /** Whether more people match than were returned. */
  more: boolean;
}

/**
 * Finds active people to add to a group by part of their name or email (any case), by name, at most
 * {@link PEOPLE_SEARCH_LIMIT}: deactivated people are never offered. With a group, each says whether
 * they are in it already. An unknown or malformed group id is no group; empty text searches nothing.
 */
export async function searchPeopleToAdd(db: Db, input: { query: string; groupId?: string }): Promise<PeopleToAdd> {
  const query = input.query.trim().slice(0, SEARCH_TEXT_MAX);
  const group = input.groupId && isUuid(input.groupId) ? await findGroupById(db, input.groupId) : undefined;
  if (!query) return { query, ...(group ? { group } : {}), people: [], more: false };
  const found = await listUsersByName(db, { text: query, activeOnly: true, limit: PEOPLE_SEARCH_LIMIT + 1 });
  const people = found.slice(0, PEOPLE_SEARCH_LIMIT);
  const members = group ? await listGroupMemberIdsAmong(db, group.id, people.map((person) => person.id)) : new Set<string>();
  return {
    query,
    ...(group ? { group } : {}),
    people: people.map(({ id, name, email, away }) => ({ id, name, email, away, inGroup: members.has(id) })),
    more: found.length > PEOPLE_SEARCH_LIMIT,
  };
}

/** Makes a group; a name already taken (once normalised) is a conflict on `name`. */
export async function createGroup(db: Db, input: { name: string; by?: string | null; now?: Date }): Promise<Group> {
  const parsed = groupNameSchema.safeParse(input.name);
  if (!parsed.success) throw new AppError("invalid_input", parsed.error.issues[0]?.message, { path: "name" });
  const group = await insertGroup(db, parsed.data, { by: input.by ?? null, at: input.now ?? new Date() });
  if (!group) throw new AppError("conflict", `There is already a group called “${parsed.data}”.`, { path: "name" });
  return group;
}

/**
 * Renames a group (the name trimmed and lower-cased as when it was made). Questions already put to it
 * stay with it; whoever asks it by name (`group("finance")`) asks by the new name from then on. A name
 * another group has is a conflict on `name`.
 */
export async function renameGroup(db: Db, input: { groupId: string; name: string; by?: string | null; now?: Date }): Promise<Group> {
  const parsed = groupNameSchema.safeParse(input.name);
  if (!parsed.success) throw new AppError("invalid_input", parsed.error.issues[0]?.message, { path: "name" });
  const renamed = isUuid(input.groupId)
    ? await renameGroupRow(db, input.groupId, parsed.data, { by: input.by ?? null, at: input.now ?? new Date() })
    : undefined;
  if (renamed === "taken") throw new AppError("conflict", `There is already a group called “${parsed.data}”.`, { path: "name" });
  if (!renamed) throw new AppError("not_found", "There is no such group.");
  await publishLiveEvent(db, { kind: "person-changed", audience: { roles: ["admin"] } });
  return renamed;
}

async function groupOrThrow(db: Db, groupId: string): Promise<Group> {
  const group = isUuid(groupId) ? await findGroupById(db, groupId) : undefined;
  if (!group) throw new AppError("not_found", "There is no such group.");
  return group;
}

/**
 * Puts a person in a group, recorded as a change to them; a conflict when they are in it already or
 * are deactivated (a deactivated person is never added: reactivate them first).
 */
export async function addGroupMember(db: Db, input: { groupId: string; userId: string; by: string; now?: Date }): Promise<{ group: Group; name: string }> {
  const at = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const group = await groupOrThrow(tx, input.groupId);
    const person = isUuid(input.userId) ? await findUserById(tx, input.userId) : undefined;
    if (!person) throw new AppError("not_found", "There is no such person.", { path: "userId" });
    if (person.deactivatedAt) throw new AppError("conflict", `${person.name} is deactivated: reactivate them before adding them to a group.`, { path: "userId" });
    const added = await insertGroupMembers(tx, [{ groupId: group.id, userId: person.id }]);
    if (added.length === 0) throw new AppError("conflict", `${person.name} is already in ${group.name}.`, { path: "userId" });
    await recordPersonChanges(tx, [{ personId: person.id, byId: input.by, kind: "group-added", data: { groupId: group.id, group: group.name }, at }]);
    await publishLiveEvent(tx, { kind: "person-changed", audience: { userIds: [person.id], roles: ["admin"] } });
    return { group, name: person.name };
  });
}

/** Takes a person out of a group, recorded as a change to them; not found when they were not in it. */
export async function removeGroupMember(db: Db, input: { groupId: string; userId: string; by: string; now?: Date }): Promise<{ group: Group; name: string }> {
  const at = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const group = await groupOrThrow(tx, input.groupId);
    const person = isUuid(input.userId) ? await findUserById(tx, input.userId) : undefined;
    const removed = person ? await deleteGroupMembers(tx, person.id, [group.id]) : [];
    if (!person || removed.length === 0) throw new AppError("not_found", `That person is not in ${group.name}.`);
    await recordPersonChanges(tx, [{ personId: person.id, byId: input.by, kind: "group-removed", data: { groupId: group.id, group: group.name }, at }]);
    await publishLiveEvent(tx, { kind: "person-changed", audience: { userIds: [person.id], roles: ["admin"] } });
    return { group, name: person.name };
  });
}

/** Deletes a group; each member's page records that they left it. */
export async function deleteGroup(db: Db, input: { groupId: string; by: string; now?: Date }): Promise<Group> {
  const at = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const group = await groupOrThrow(tx, input.groupId);
    const members = await listGroupMemberIds(tx, group.id);
    await recordPersonChanges(
      tx,
      members.map((personId) => ({ personId, byId: input.by, kind: "group-removed", data: { groupId: group.id, group: group.name, deleted: true }, at })),
    );
    const deleted = await deleteGroupRow(tx, group.id, { by: input.by, at, members: members.length });
    if (!deleted) throw new AppError("not_found", "There is no such group.");
    // Admins only: a group may have more members than one notification can name.
    await publishLiveEvent(tx, { kind: "person-changed", audience: { roles: ["admin"] } });
    return deleted;
  });
}
