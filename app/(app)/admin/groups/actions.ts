"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { CreateGroupState } from "@/components/create-group-form";
import type { PersonChangeState } from "@/components/person-forms-state";
import { getDb } from "@/lib/database";
import { addGroupMember, createGroup, deleteGroup, groupNameSchema, removeGroupMember, renameGroup } from "@/lib/groups";
import { defineFormAction } from "@/lib/server/define-action";
import { submittedText } from "@/lib/server/form-values";

function revalidateGroups(userId?: string, groupId?: string) {
  revalidatePath("/admin/groups");
  if (groupId) revalidatePath(`/admin/groups/${groupId}`);
  revalidatePath("/admin/people");
  if (userId) revalidatePath(`/admin/people/${userId}`);
}

const create = defineFormAction({
  roles: ["admin"],
  input: z.object({ name: groupNameSchema }),
  async handler({ name }, admin) {
    const group = await createGroup(await getDb(), { name, by: admin.id });
    revalidateGroups();
    return { message: `Group “${group.name}” created.` };
  },
});

/** Admins only: makes a group (its name trimmed and lower-cased; a taken name is refused on the field). */
export async function createGroupAction(_previous: CreateGroupState | null, formData: FormData | Record<string, unknown>): Promise<CreateGroupState> {
  const result = await create(formData);
  return { ...result, values: { name: result.ok ? "" : submittedText(formData, "name") } };
}

const addMember = defineFormAction({
  roles: ["admin"],
  input: z.object({ groupId: z.uuid("There is no such group."), userId: z.uuid("Choose who to add.") }),
  async handler({ groupId, userId }, admin) {
    const { group, name } = await addGroupMember(await getDb(), { groupId, userId, by: admin.id });
    revalidateGroups(userId, group.id);
    return { message: `${name} added to ${group.name}.` };
  },
});

/** Admins only: puts a person in a group (recorded on their page); a deactivated person, or one already in it, is refused. */
export async function addGroupMemberAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await addMember(formData);
}

const removeMember = defineFormAction({
  roles: ["admin"],
  input: z.object({ groupId: z.uuid("There is no such group."), userId: z.uuid("There is no such person.") }),
  async handler({ groupId, userId }, admin) {
    const { group, name } = await removeGroupMember(await getDb(), { groupId, userId, by: admin.id });
    revalidateGroups(userId, group.id);
    return { message: `${name} removed from ${group.name}.` };
  },
});

/** Admins only: takes a person out of a group (recorded on their page). */
export async function removeGroupMemberAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await removeMember(formData);
}

const remove = defineFormAction({
  roles: ["admin"],
  input: z.object({ groupId: z.uuid("There is no such group.") }),
  async handler({ groupId }, admin) {
    await deleteGroup(await getDb(), { groupId, by: admin.id });
    revalidateGroups();
    // The group's page it was deleted from is gone: back to the list, which no longer has it.
    redirect("/admin/groups");
  },
});

/** Admins only: deletes a group (its members' pages record that they left it), then goes back to the groups list. */
export async function deleteGroupAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await remove(formData);
}

const rename = defineFormAction({
  roles: ["admin"],
  input: z.object({ groupId: z.uuid("There is no such group."), name: z.string() }),
  async handler({ groupId, name }, admin) {
    const group = await renameGroup(await getDb(), { groupId, name, by: admin.id });
    revalidateGroups(undefined, group.id);
    return { message: `Renamed: the group is called “${group.name}” now.` };
  },
});

/** Admins only: renames a group (trimmed and lower-cased; a name another group has is refused on the field). */
export async function renameGroupAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await rename(formData);
}
