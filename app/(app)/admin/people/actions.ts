"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { AddPersonState, InviteShown, PersonChangeState, ReinviteState } from "@/components/person-forms-state";
import type { User } from "@/db/schema";
import { getDb } from "@/lib/database";
import { emailInvite, inviteUrl, type NewInvite } from "@/lib/invites";
import { emailOptionsFromEnvironment } from "@/lib/notifiers";
import { addPerson, changeGroups, changeRoles, deactivatePerson, personEmailSchema, personNameSchema, reactivatePerson, reinvitePerson, rolesSchema, setDelegate } from "@/lib/people";
import { defineFormAction } from "@/lib/server/define-action";
import { formList, submittedList, submittedText } from "@/lib/server/form-values";
import { publicBaseUrl } from "@/lib/server/public-url";

const groupIdsSchema = formList(z.array(z.uuid("Choose groups from the list.")));
const personIdSchema = z.uuid("There is no such person.");

/** The link made for `person`, emailed when SMTP is configured — after the commit, never inside it. */
async function handOver(person: User, invite: NewInvite, by: User): Promise<InviteShown> {
  const url = inviteUrl(await publicBaseUrl(), invite.token);
  const delivery = await emailInvite(emailOptionsFromEnvironment(process.env), { name: person.name, email: person.email, url, expiresAt: invite.expiresAt, invitedBy: by.name });
  return { personId: person.id, name: person.name, email: person.email, url, expiresAt: invite.expiresAt.toISOString(), delivery };
}

function revalidatePeople(personId?: string) {
  revalidatePath("/admin/people");
  revalidatePath("/admin/groups");
  if (personId) revalidatePath(`/admin/people/${personId}`);
}

const addPersonToParley = defineFormAction({
  roles: ["admin"],
  input: z.object({ name: personNameSchema, email: personEmailSchema, roles: formList(rolesSchema), groupIds: groupIdsSchema }),
  async handler(input, admin) {
    const { person, invite } = await addPerson(await getDb(), { ...input, by: admin.id });
    revalidatePeople(person.id);
    return handOver(person, invite, admin);
  },
});

/** Admins only: adds a person with their roles and groups; their one-time invite link comes back this once (and is emailed when SMTP is configured). */
export async function addPersonAction(_previous: AddPersonState | null, formData: FormData | Record<string, unknown>): Promise<AddPersonState> {
  const result = await addPersonToParley(formData);
  const values = result.ok
    ? { name: "", email: "", roles: [], groupIds: [] }
    : {
        name: submittedText(formData, "name"),
        email: submittedText(formData, "email"),
        roles: submittedList(formData, "roles"),
        groupIds: submittedList(formData, "groupIds"),
      };
  return { ...result, values };
}

const inviteAgain = defineFormAction({
  roles: ["admin"],
  input: z.object({ personId: personIdSchema }),
  async handler({ personId }, admin) {
    const { person, invite } = await reinvitePerson(await getDb(), { personId, by: admin.id });
    revalidatePeople(person.id);
    return handOver(person, invite, admin);
  },
});

/** Admins only: a new invite link for a person (to set a new password); their earlier links stop working. */
export async function inviteAgainAction(_previous: ReinviteState | null, formData: FormData | Record<string, unknown>): Promise<ReinviteState> {
  return await inviteAgain(formData);
}

const setRoles = defineFormAction({
  roles: ["admin"],
  input: z.object({ personId: personIdSchema, roles: formList(rolesSchema) }),
  async handler({ personId, roles }, admin) {
    const person = await changeRoles(await getDb(), { personId, roles, by: admin.id });
    revalidatePeople(person.id);
    return { message: `${person.name}’s roles: ${person.roles.join(", ")}.` };
  },
});

/** Admins only: sets a person's roles (the last active admin keeps theirs). */
export async function changeRolesAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await setRoles(formData);
}

const setGroups = defineFormAction({
  roles: ["admin"],
  input: z.object({ personId: personIdSchema, groupIds: groupIdsSchema }),
  async handler({ personId, groupIds }, admin) {
    const { added, removed } = await changeGroups(await getDb(), { personId, groupIds, by: admin.id });
    revalidatePeople(personId);
    const said = [
      added.length > 0 ? `added to ${added.map((group) => group.name).join(", ")}` : "",
      removed.length > 0 ? `removed from ${removed.map((group) => group.name).join(", ")}` : "",
    ].filter(Boolean);
    return { message: said.length > 0 ? `Groups saved: ${said.join("; ")}.` : "Groups unchanged." };
  },
});

/** Admins only: puts a person in exactly the groups ticked. */
export async function changeGroupsAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await setGroups(formData);
}

const deactivate = defineFormAction({
  roles: ["admin"],
  input: z.object({ personId: personIdSchema }),
  async handler({ personId }, admin) {
    const person = await deactivatePerson(await getDb(), { personId, by: admin.id });
    revalidatePeople(person.id);
    return { message: `${person.name} is deactivated: signed out everywhere, and cannot sign in.` };
  },
});

/** Admins only: deactivates a person at once (their sessions end; the last active admin cannot be deactivated). */
export async function deactivatePersonAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await deactivate(formData);
}

const reactivate = defineFormAction({
  roles: ["admin"],
  input: z.object({ personId: personIdSchema }),
  async handler({ personId }, admin) {
    const person = await reactivatePerson(await getDb(), { personId, by: admin.id });
    revalidatePeople(person.id);
    return { message: `${person.name} can sign in again.` };
  },
});

/** Admins only: lets a deactivated person sign in again. */
export async function reactivatePersonAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await reactivate(formData);
}

const nameDelegate = defineFormAction({
  roles: ["admin"],
  input: z.object({ personId: personIdSchema, delegateId: z.string() }),
  async handler({ personId, delegateId }, admin) {
    const db = await getDb();
    const person = await setDelegate(db, { personId, delegateId: delegateId === "" ? null : delegateId, by: admin.id });
    revalidatePeople(person.id);
    return {
      message: person.delegateId
        ? `Saved: while ${person.name} is away, their new questions go to the person named.`
        : `Saved: while ${person.name} is away, they get no new questions and askers are told so.`,
    };
  },
});

/** Admins only: names who takes someone's new questions while they are away (or nobody), as they could on their profile; recorded with who did it. */
export async function setPersonDelegateAction(_previous: PersonChangeState | null, formData: FormData | Record<string, unknown>): Promise<PersonChangeState> {
  return await nameDelegate(formData);
}
