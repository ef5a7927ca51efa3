import { z } from "zod";
import type { Db } from "@/db/client";
import {
  deleteGroup as deleteGroupRow,
  deleteGroupMembers,
  findGroupById,
  type Group,
  type GroupWithMembers,
  insertGroup,
  insertGroupMembers,
  listGroupMemberIds,
  listGroups as listGroupRows,
  listGroupsWithMembers,
} from "@/db/queries/groups";
import { findUserById } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { recordPersonChanges } from "@/lib/person-changes";
import { isUuid } from "@/lib/ids";
import { publishLiveEvent } from "@/lib/live-events";

export type { Group, GroupWithMembers };

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

/** Every group with its members, by name. */
export function listGroupsAndMembers(db: Db): Promise<GroupWithMembers[]> {
  return listGroupsWithMembers(db);
}

/** Makes a group; a name already taken (once normalised) is a conflict on `name`. */
export async function createGroup(db: Db, input: { name: string }): Promise<Group> {
  const parsed = groupNameSchema.safeParse(input.name);
  if (!parsed.success) throw new AppError("invalid_input", parsed.error.issues[0]?.message, { path: "name" });
  const group = await insertGroup(db, parsed.data);
  if (!group) throw new AppError("conflict", `There is already a group called “${parsed.data}”.`, { path: "name" });
  return group;
}

async function groupOrThrow(db: Db, groupId: string): Promise<Group> {
  const group = isUuid(groupId) ? await findGroupById(db, groupId) : undefined;
  if (!group) throw new AppError("not_found", "There is no such group.");
  return group;
}

/** Puts a person in a group, recorded as a change to them; a conflict when they are in it already. */
export async function addGroupMember(db: Db, input: { groupId: string; userId: string; by: string; now?: Date }): Promise<{ group: Group; name: string }> {
  const at = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const group = await groupOrThrow(tx, input.groupId);
    const person = isUuid(input.userId) ? await findUserById(tx, input.userId) : undefined;
    if (!person) throw new AppError("not_found", "There is no such person.", { path: "userId" });
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
    const deleted = await deleteGroupRow(tx, group.id);
    if (!deleted) throw new AppError("not_found", "There is no such group.");
    // Admins only: a group may have more members than one notification can name.
    await publishLiveEvent(tx, { kind: "person-changed", audience: { roles: ["admin"] } });
    return deleted;
  });
}
