import { z } from "zod";
import type { Db } from "@/db/client";
import { revokePersonalTokensOf } from "@/db/queries/api-keys";
import { listGroupsForRouting } from "@/db/queries/group-routing";
import { deleteGroupMembers, findGroupsByIds, type Group, insertGroupMembers, listGroups, listGroupsOfPeople } from "@/db/queries/groups";
import { listPersonChanges, type PersonChangeRow } from "@/db/queries/person-changes";
import { expireLiveSignInLinks } from "@/db/queries/sign-in-links";
import { listOpenSlots, type OpenSlotRow } from "@/db/queries/sla";
import { findUserById, insertUsersIfAbsent, listUsers, listUsersByName, lockActiveAdminIds, lockUser, setUserAway, touchLastSignedIn, updateUser } from "@/db/queries/users";
import { ROLES, type Role, type User } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordPersonChanges } from "@/lib/person-changes";
import { isUuid } from "@/lib/ids";
import { createInvite, type NewInvite } from "@/lib/invites";
import { publishLiveEvent } from "@/lib/live-events";

export type { PersonChangeRow };

/** Every person (the users table, by name), as the admin pages list them. */
export function listPeople(db: Db): Promise<User[]> {
  return listUsers(db);
}

/**
 * Marks a person away (or back), records who did it when it changed anything, and tells their open
 * screens and every admin's. Returns the person as stored, or undefined when there is no such person.
 */
export async function changeAway(db: Db, userId: string, away: boolean, by: string, now: Date = new Date()): Promise<User | undefined> {
  return db.transaction(async (tx) => {
    const before = isUuid(userId) ? await lockUser(tx, userId) : undefined;
    if (!before) return undefined;
    const person = await setUserAway(tx, userId, away);
    if (person) {
      if (before.away !== away) await recordPersonChanges(tx, [{ personId: person.id, byId: by, kind: "away-changed", data: { away }, at: now }]);
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
  const groupsOf = await listGroupsOfPeople(db, everyone.map((user) => user.id));
  const people = everyone
    .map((user) => ({ name: user.name, email: user.email, groups: (groupsOf.get(user.id) ?? []).map((group) => group.name), away: user.away }))
    .filter((person) => wanted === "" || person.name.toLowerCase().includes(wanted) || person.email.includes(wanted) || person.groups.some((name) => name.includes(wanted)));
  const groups = (await listGroupsForRouting(db))
    .filter((group) => wanted === "" || group.name.includes(wanted))
    .map(({ name, members, present }) => ({ name, members, present }));
  return { people, groups };
}

/** At most this many people are offered for what was typed into a person search: more of the name narrows them. */
export const PEOPLE_FOUND = 8;

/** A person a wait can go to, as a person search offers them. */
export interface FoundAssignee {
  name: string;
  email: string;
  away: boolean;
}

/**
 * The active people who answer questions whose name or email holds `text` (any case), by name, at
 * most {@link PEOPLE_FOUND}: what an admin picks from when reassigning waits. One page along the
 * people's `(name, id)` index, however many people there are.
 */
export async function findAssignees(db: Db, text: string): Promise<FoundAssignee[]> {
  const found = await listUsersByName(db, { text: text.trim(), activeOnly: true, role: "assignee", limit: PEOPLE_FOUND });
  return found.map((person) => ({ name: person.name, email: person.email, away: person.away }));
}

const UNPRINTABLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/** The longest name a person may have. */
export const PERSON_NAME_MAX = 100;

/** A person's name as the add form sends it: trimmed, one line of 1–{@link PERSON_NAME_MAX} printable characters. */
export const personNameSchema = z
  .string()
  .trim()
  .min(1, "Give their name, as others will see it.")
  .max(PERSON_NAME_MAX, `A name is at most ${PERSON_NAME_MAX} characters.`)
  .refine((name) => !UNPRINTABLE.test(name), "A name is one line of plain text: no control characters.");

/** An email as the add form sends it: trimmed and lower-cased, as it is stored and signed in with. */
export const personEmailSchema = z
  .string()
  .transform((email) => email.trim().toLowerCase())
  .pipe(z.email("Enter an email address, like sam@example.com.").max(254, "An email address is at most 254 characters."));

/** The roles a person holds: at least one, each one Parley knows. */
export const rolesSchema = z.array(z.enum(ROLES, "Choose from admin, operator and assignee.")).min(1, "Give them at least one role.");

/** A person as the People page lists them: with their groups. */
export interface PersonRow extends User {
  groups: Group[];
}

/** How many people one page of the People page lists. */
export const PEOPLE_PAGE_SIZE = 50;

/** One page of the People page: see {@link listPeopleForAdmin}. */
export interface PeoplePage {
  people: PersonRow[];
  /** The cursor of the next page (the last person's id), when more people follow. */
  next?: string;
  /** Whether the page asked for was after a cursor that named nobody, so this is the first page. */
  cursorIgnored: boolean;
}

/**
 * One page of the people whose name or email contains `search` (everyone when it is empty), by name
 * then id, with their groups: the first page, or the one after the person whose id is `after` (the
 * `next` of the page before). A cursor that is not a person's id reads the first page. Reads the page
 * asked for and never the people before it.
 */
export async function listPeopleForAdmin(db: Db, options: { search?: string; after?: string; pageSize?: number } = {}): Promise<PeoplePage> {
  const pageSize = options.pageSize ?? PEOPLE_PAGE_SIZE;
  const cursor = options.after && isUuid(options.after) ? await findUserById(db, options.after) : undefined;
  const found = await listUsersByName(db, { text: options.search ?? "", after: cursor ? { name: cursor.name, id: cursor.id } : undefined, limit: pageSize + 1 });
  const people = found.slice(0, pageSize);
  const groups = await listGroupsOfPeople(
    db,
    people.map((person) => person.id),
  );
  return {
    people: people.map((person) => ({ ...person, groups: groups.get(person.id) ?? [] })),
    ...(found.length > pageSize ? { next: people.at(-1)!.id } : {}),
    cursorIgnored: Boolean(options.after) && !cursor,
  };
}

/** Everything a person's page shows: who they are, their groups, every group, what changed, and the waits assigned to them. */
export interface PersonDetail {
  person: User;
  groups: Group[];
  allGroups: Group[];
  changes: PersonChangeRow[];
  openWaits: OpenSlotRow[];
}

/** A person's page, or undefined when there is no such person (a malformed id included). */
export async function readPersonDetail(db: Db, personId: string, now: Date = new Date()): Promise<PersonDetail | undefined> {
  if (!isUuid(personId)) return undefined;
  const person = await findUserById(db, personId);
  if (!person) return undefined;
  return {
    person,
    groups: (await listGroupsOfPeople(db, [person.id])).get(person.id) ?? [],
    allGroups: await listGroups(db),
    changes: await listPersonChanges(db, person.id),
    openWaits: await listOpenSlots(db, { assigneeId: person.id }, now, 100),
  };
}

/** Records that a person signed in (shown as their last sign-in). */
export async function recordSignIn(db: Db, userId: string, at: Date = new Date()): Promise<void> {
  if (isUuid(userId)) await touchLastSignedIn(db, userId, at);
}

async function groupsOrThrow(db: Db, groupIds: readonly string[]): Promise<Group[]> {
  const wanted = [...new Set(groupIds)];
  const found = wanted.every(isUuid) ? await findGroupsByIds(db, wanted) : [];
  if (found.length !== wanted.length) throw new AppError("not_found", "One of those groups no longer exists: reload the page and choose again.", { path: "groupIds" });
  return found;
}

/** Tells the person's open screens (their role may have changed) and every admin's. */
function personChanged(db: Db, personId: string): Promise<void> {
  return publishLiveEvent(db, { kind: "person-changed", audience: { userIds: [personId], roles: ["admin"] } });
}

/**
 * Adds a person with no password, in the groups chosen, and makes their invite link — in one
 * transaction, recorded as changes to them. An email already taken is a conflict on `email`.
 */
export async function addPerson(
  db: Db,
  input: { name: string; email: string; roles: readonly Role[]; groupIds: readonly string[]; by: string; now?: Date },
): Promise<{ person: User; groups: Group[]; invite: NewInvite }> {
  const now = input.now ?? new Date();
  const name = personNameSchema.parse(input.name);
  const email = personEmailSchema.parse(input.email);
  const roles = [...new Set(rolesSchema.parse(input.roles))];
  return db.transaction(async (tx) => {
    const groups = await groupsOrThrow(tx, input.groupIds);
    const [person] = await insertUsersIfAbsent(tx, [{ name, email, roles, createdAt: now }]);
    if (!person) throw new AppError("conflict", `Someone in Parley already has the email ${email}.`, { path: "email" });
    await insertGroupMembers(
      tx,
      groups.map((group) => ({ groupId: group.id, userId: person.id })),
    );
    await recordPersonChanges(tx, [
      { personId: person.id, byId: input.by, kind: "added", data: { name, email, roles, groups: groups.map((group) => group.name) }, at: now },
    ]);
    const invite = await createInvite(tx, { userId: person.id, by: input.by, now });
    await personChanged(tx, person.id);
    return { person, groups, invite };
  });
}

/** A new invite link for someone already in Parley; the links they had stop working. */
export async function reinvitePerson(db: Db, input: { personId: string; by: string; now?: Date }): Promise<{ person: User; invite: NewInvite }> {
  return db.transaction(async (tx) => {
    const person = isUuid(input.personId) ? await findUserById(tx, input.personId) : undefined;
    if (!person) throw new AppError("not_found", "There is no such person.");
    if (person.deactivatedAt) throw new AppError("conflict", `${person.name} is deactivated: reactivate them before inviting them again.`);
    const invite = await createInvite(tx, { userId: person.id, by: input.by, ...(input.now ? { now: input.now } : {}) });
    return { person, invite };
  });
}

/**
 * Refuses a change that would leave Parley with no active admin. `admins` are the active admins as
 * {@link lockActiveAdminIds} locked them at the start of the change's transaction (before the
 * person's own row, always in that order), so two admins taking each other's admin role at once are
 * judged one after the other, and the second is refused.
 */
function keepAnAdmin(admins: readonly string[], person: User, stillAdmin: boolean, by: string, doing: string): void {
  if (stillAdmin || !admins.includes(person.id)) return;
  if (admins.some((id) => id !== person.id)) return;
  const who = person.id === by ? "You are" : `${person.name} is`;
  throw new AppError("conflict", `${who} the last admin: make someone else an admin before ${doing}.`);
}

async function lockedPersonOrThrow(tx: Db, personId: string): Promise<User> {
  const person = isUuid(personId) ? await lockUser(tx, personId) : undefined;
  if (!person) throw new AppError("not_found", "There is no such person.");
  return person;
}

/** Sets a person's roles; recorded with what they were. The last active admin keeps theirs. */
export async function changeRoles(db: Db, input: { personId: string; roles: readonly Role[]; by: string; now?: Date }): Promise<User> {
  const now = input.now ?? new Date();
  const roles = ROLES.filter((role) => rolesSchema.parse(input.roles).includes(role));
  return db.transaction(async (tx) => {
    const admins = await lockActiveAdminIds(tx);
    const person = await lockedPersonOrThrow(tx, input.personId);
    keepAnAdmin(admins, person, roles.includes("admin"), input.by, input.by === person.id ? "removing your own admin role" : "removing theirs");
    const before = ROLES.filter((role) => person.roles.includes(role));
    if (before.join() === roles.join()) return person;
    const updated = (await updateUser(tx, person.id, { roles }))!;
    await recordPersonChanges(tx, [{ personId: person.id, byId: input.by, kind: "roles-changed", data: { from: before, to: roles }, at: now }]);
    await personChanged(tx, person.id);
    return updated;
  });
}

/** Puts a person in exactly these groups; each group joined or left is recorded. */
export async function changeGroups(db: Db, input: { personId: string; groupIds: readonly string[]; by: string; now?: Date }): Promise<{ added: Group[]; removed: Group[] }> {
  const at = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const person = await lockedPersonOrThrow(tx, input.personId);
    const wanted = await groupsOrThrow(tx, input.groupIds);
    const current = (await listGroupsOfPeople(tx, [person.id])).get(person.id) ?? [];
    const wantedIds = new Set(wanted.map((group) => group.id));
    const currentIds = new Set(current.map((group) => group.id));
    const toAdd = wanted.filter((group) => !currentIds.has(group.id));
    const toRemove = current.filter((group) => !wantedIds.has(group.id));
    const addedRows = await insertGroupMembers(
      tx,
      toAdd.map((group) => ({ groupId: group.id, userId: person.id })),
    );
    const removedRows = await deleteGroupMembers(
      tx,
      person.id,
      toRemove.map((group) => group.id),
    );
    const added = toAdd.filter((group) => addedRows.some((row) => row.groupId === group.id));
    const removed = toRemove.filter((group) => removedRows.some((row) => row.groupId === group.id));
    await recordPersonChanges(tx, [
      ...added.map((group) => ({ personId: person.id, byId: input.by, kind: "group-added" as const, data: { groupId: group.id, group: group.name }, at })),
      ...removed.map((group) => ({ personId: person.id, byId: input.by, kind: "group-removed" as const, data: { groupId: group.id, group: group.name }, at })),
    ]);
    if (added.length + removed.length > 0) await personChanged(tx, person.id);
    return { added, removed };
  });
}

/**
 * Deactivates a person: they cannot sign in, every session they have ends at once (sessions begun
 * before now are refused), their personal tokens are revoked, and their unused sign-in links stop
 * working. The last active admin cannot be deactivated.
 */
export async function deactivatePerson(db: Db, input: { personId: string; by: string; now?: Date }): Promise<User> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const admins = await lockActiveAdminIds(tx);
    const person = await lockedPersonOrThrow(tx, input.personId);
    if (person.deactivatedAt) throw new AppError("conflict", `${person.name} is already deactivated.`);
    keepAnAdmin(admins, person, false, input.by, input.by === person.id ? "deactivating yourself" : "deactivating them");
    const updated = (await updateUser(tx, person.id, { deactivatedAt: now, sessionsValidFrom: now }))!;
    // Revoked, not merely refused while deactivated: reactivating must not bring them back, as it brings back no session.
    await revokePersonalTokensOf(tx, { userId: person.id, at: now, by: input.by, because: "deactivated" });
    await expireLiveSignInLinks(tx, person.id, "invite", now);
    await expireLiveSignInLinks(tx, person.id, "answer", now);
    await recordPersonChanges(tx, [{ personId: person.id, byId: input.by, kind: "deactivated", at: now }]);
    await personChanged(tx, person.id);
    return updated;
  });
}

/** Reactivates a person: they can sign in again; the sessions and personal tokens the deactivation ended stay ended. */
export async function reactivatePerson(db: Db, input: { personId: string; by: string; now?: Date }): Promise<User> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const person = await lockedPersonOrThrow(tx, input.personId);
    if (!person.deactivatedAt) throw new AppError("conflict", `${person.name} is not deactivated.`);
    const updated = (await updateUser(tx, person.id, { deactivatedAt: null }))!;
    // Tokens of a deactivation recorded before deactivating revoked them were only refused while it lasted.
    await revokePersonalTokensOf(tx, { userId: person.id, at: now, madeBy: person.deactivatedAt, by: input.by, because: "deactivated" });
    await recordPersonChanges(tx, [{ personId: person.id, byId: input.by, kind: "reactivated", at: now }]);
    await personChanged(tx, person.id);
    return updated;
  });
}

/** Who may take someone's questions while they are away: the other active people who answer questions. */
export async function listPossibleDelegates(db: Db, personId: string): Promise<Pick<User, "id" | "name" | "away">[]> {
  return (await listUsers(db))
    .filter((user) => user.id !== personId && user.roles.includes("assignee") && !user.deactivatedAt)
    .map(({ id, name, away }) => ({ id, name, away }));
}

/**
 * Names who takes a person's new questions while they are away (null: nobody — asks to them then get
 * nothing, `away`). The delegate must be another active person who answers questions; recorded.
 */
export async function setDelegate(db: Db, input: { personId: string; delegateId: string | null; by: string; now?: Date }): Promise<User> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const person = await lockedPersonOrThrow(tx, input.personId);
    let delegate: User | undefined;
    if (input.delegateId !== null) {
      delegate = isUuid(input.delegateId) ? await findUserById(tx, input.delegateId) : undefined;
      if (!delegate || delegate.id === person.id || delegate.deactivatedAt || !delegate.roles.includes("assignee")) {
        throw new AppError("invalid_input", "Choose someone else in Parley who answers questions.", { path: "delegateId" });
      }
    }
    if ((person.delegateId ?? null) === input.delegateId) return person;
    const updated = (await updateUser(tx, person.id, { delegateId: input.delegateId }))!;
    await recordPersonChanges(tx, [{ personId: person.id, byId: input.by, kind: "delegate-changed", data: { to: delegate?.name ?? null }, at: now }]);
    await personChanged(tx, person.id);
    return updated;
  });
}
