import { and, arrayContains, asc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { type NewUser, type Role, type User, users } from "../schema";

/** Lower-cases and trims an email the way it is stored. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
  return user;
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** These people, in one query (unknown ids are left out). */
export async function findUsersByIds(db: Db, ids: readonly string[]): Promise<User[]> {
  if (ids.length === 0) return [];
  return db.select().from(users).where(inArray(users.id, [...new Set(ids)]));
}

/** The people with these emails (compared as stored: trimmed, lower-cased), in one query. */
export async function findUsersByEmails(db: Db, emails: readonly string[]): Promise<User[]> {
  if (emails.length === 0) return [];
  return db.select().from(users).where(inArray(users.email, [...new Set(emails.map(normaliseEmail))]));
}

export async function listUsers(db: Db): Promise<User[]> {
  return db.select().from(users).orderBy(users.name);
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  return row?.count ?? 0;
}

/** Inserts people whose email is not taken yet; returns the ones it created. */
export async function insertUsersIfAbsent(db: Db, people: NewUser[]): Promise<User[]> {
  if (people.length === 0) return [];
  return db
    .insert(users)
    .values(people.map((person) => ({ ...person, email: normaliseEmail(person.email) })))
    .onConflictDoNothing({ target: users.email })
    .returning();
}

/** Sets a person's away flag; returns the updated person, or undefined when there is no such id. */
export async function setUserAway(db: Db, id: string, away: boolean): Promise<User | undefined> {
  const [user] = await db.update(users).set({ away }).where(eq(users.id, id)).returning();
  return user;
}

/** A LIKE pattern that finds `text` anywhere, literally: % and _ typed are not wildcards. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** Where a page of people by name goes on from: after this person (by name, then id). */
export interface UserCursor {
  name: string;
  id: string;
}

/**
 * A page of people by name, then id: those whose name or email contains `text` (any case; everyone
 * when it is empty), only active ones when `activeOnly`, only those with `role` when given, after
 * `after` when given, at most `limit`.
 * Keyset paging: it reads the page and never the people before it (an index on `(name, id)` serves it).
 */
export async function listUsersByName(
  db: Db,
  options: { text?: string; activeOnly?: boolean; role?: Role; after?: UserCursor; limit: number },
): Promise<User[]> {
  const text = options.text?.trim() ?? "";
  const conditions = [
    text ? or(ilike(users.name, containing(text)), ilike(users.email, containing(text))) : undefined,
    options.activeOnly ? isNull(users.deactivatedAt) : undefined,
    options.role ? arrayContains(users.roles, [options.role]) : undefined,
    options.after ? sql`(${users.name}, ${users.id}) > (${options.after.name}, ${options.after.id}::uuid)` : undefined,
  ];
  return db
    .select()
    .from(users)
    .where(and(...conditions))
    .orderBy(asc(users.name), asc(users.id))
    .limit(options.limit);
}

/**
 * Locks every active admin's row until the transaction ends and returns their ids. A change that could
 * leave Parley without an admin takes this lock first, so two such changes at once are judged one
 * after the other: the second sees the first's outcome.
 */
export async function lockActiveAdminIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(arrayContains(users.roles, ["admin"]), isNull(users.deactivatedAt)))
    .orderBy(users.id)
    .for("no key update");
  return rows.map((row) => row.id);
}

/** Locks one person's row until the transaction ends; undefined when there is no such id. */
export async function lockUser(db: Db, id: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).for("no key update");
  return user;
}

/** Updates what an admin may change about a person; returns the person as stored, or undefined when there is no such id. */
export async function updateUser(
  db: Db,
  id: string,
  change: Partial<Pick<User, "roles" | "deactivatedAt" | "sessionsValidFrom" | "passwordHash" | "lastSignedInAt" | "delegateId">>,
): Promise<User | undefined> {
  const [user] = await db.update(users).set(change).where(eq(users.id, id)).returning();
  return user;
}

/** Records that a person signed in. */
export async function touchLastSignedIn(db: Db, id: string, at: Date): Promise<void> {
  await db.update(users).set({ lastSignedInAt: at }).where(eq(users.id, id));
}
