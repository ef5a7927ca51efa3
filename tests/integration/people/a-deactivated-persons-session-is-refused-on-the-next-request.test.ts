import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it } from "vitest";
import type { User } from "@/db/schema";
import { personForSession } from "@/lib/auth/session-person";
import { deactivatePerson, reactivatePerson } from "@/lib/people";
import { type CookieJar, sessionClaims } from "@/lib/server/session-token";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { addPeople } from "./people-fixture";

const SECRET = "a-session-secret-long-enough-for-the-tests-0123456789";
const COOKIE = "authjs.session-token";

/** The cookies of a browser that signed in as `userId` at `signedInAt`, as next-auth would have set them. */
async function browserSignedIn(userId: string, signedInAt: number): Promise<CookieJar> {
  const token = await encode({ token: { sub: userId, signedInAt, sid: randomUUID() }, secret: SECRET, salt: COOKIE });
  return { get: (name) => (name === COOKIE ? { value: token } : undefined) };
}

describe.each(DATABASE_KINDS)("deactivating a person (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** Who the server takes a request with these cookies to be from (null: nobody, so sign in). */
  async function requestFrom(jar: CookieJar): Promise<string | null> {
    return (await personForSession(database!.db, await sessionClaims(jar, () => SECRET)))?.id ?? null;
  }

  it("refuses their open session on its next request", async () => {
    database = await createTestDatabase(kind);
    const [ada, sam] = (await addPeople(database.db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Sam Rivera", roles: ["assignee"] },
    ])) as [User, User];
    const sams = await browserSignedIn(sam.id, Date.now() - 60_000);
    expect(await requestFrom(sams)).toBe(sam.id);

    await deactivatePerson(database.db, { personId: sam.id, by: ada.id });

    expect(await requestFrom(sams)).toBeNull();
  });

  it("keeps that session refused after they are reactivated; a new sign-in works", async () => {
    database = await createTestDatabase(kind);
    const [ada, sam] = (await addPeople(database.db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Sam Rivera", roles: ["assignee"] },
    ])) as [User, User];
    const before = await browserSignedIn(sam.id, Date.now() - 60_000);
    const deactivatedAt = new Date();
    await deactivatePerson(database.db, { personId: sam.id, by: ada.id, now: deactivatedAt });
    await reactivatePerson(database.db, { personId: sam.id, by: ada.id });

    expect(await requestFrom(before)).toBeNull();
    expect(await requestFrom(await browserSignedIn(sam.id, deactivatedAt.getTime() + 1_000))).toBe(sam.id);
  });

  it("leaves everyone else's session alone", async () => {
    database = await createTestDatabase(kind);
    const [ada, sam, priya] = (await addPeople(database.db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Sam Rivera", roles: ["assignee"] },
      { name: "Priya Shah", roles: ["assignee"] },
    ])) as [User, User, User];
    const priyas = await browserSignedIn(priya.id, Date.now() - 60_000);
    await deactivatePerson(database.db, { personId: sam.id, by: ada.id });
    expect(await requestFrom(priyas)).toBe(priya.id);
  });
});
