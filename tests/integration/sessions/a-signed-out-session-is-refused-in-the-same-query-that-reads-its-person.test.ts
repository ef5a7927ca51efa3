import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { endedSessions, type User } from "@/db/schema";
import { endSession, personForSession, SESSION_MAX_AGE_SECONDS, type SessionIdentity } from "@/lib/auth/session-person";
import { acceptInvite, createInvite } from "@/lib/invites";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { addPeople } from "../people/people-fixture";

describe.each(DATABASE_KINDS)("ending a session (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function sam(): Promise<User> {
    database = await createTestDatabase(kind);
    const [person] = (await addPeople(database.db, [{ name: "Sam Rivera", roles: ["assignee"] }])) as [User];
    return person;
  }

  function session(userId: string, signedInAt = Date.now() - 60_000): SessionIdentity {
    return { userId, sessionId: randomUUID(), signedInAt };
  }

  it("refuses a signed-out session on its next request and leaves the person's other sessions alone", async () => {
    const person = await sam();
    const laptop = session(person.id);
    const phone = session(person.id);
    expect((await personForSession(database!.db, laptop))?.id).toBe(person.id);

    expect(await endSession(database!.db, { sid: laptop.sessionId, sub: person.id })).toBe(true);

    expect(await personForSession(database!.db, laptop)).toBeNull();
    expect((await personForSession(database!.db, phone))?.id).toBe(person.id);
  });

  it("reads the person and whether the session was ended in one query", async () => {
    const person = await sam();
    const laptop = session(person.id);
    await endSession(database!.db, { sid: randomUUID(), sub: person.id });
    // Every statement drizzle sends goes through one of these.
    const client = (database!.pglite ?? database!.postgres) as unknown as Record<string, (...args: unknown[]) => unknown>;
    const calls = (kind === "pglite" ? ["query", "exec"] : ["unsafe"]).map((method) => vi.spyOn(client, method));
    try {
      expect((await personForSession(database!.db, laptop))?.id).toBe(person.id);
      expect(calls.reduce((sum, spy) => sum + spy.mock.calls.length, 0)).toBe(1);
    } finally {
      for (const spy of calls) spy.mockRestore();
    }
  });

  it("refuses a token without a session id, which no sign-out could end", async () => {
    const person = await sam();
    expect(await personForSession(database!.db, { userId: person.id, sessionId: null, signedInAt: Date.now() - 60_000 })).toBeNull();
  });

  it("remembers an ended session for a whole session lifetime, and forgets the ones past it at the next sign-out", async () => {
    const person = await sam();
    const longAgo = new Date(Date.now() - (SESSION_MAX_AGE_SECONDS + 60) * 1000);
    await endSession(database!.db, { sid: randomUUID(), sub: person.id }, longAgo);
    const recent = session(person.id);
    await endSession(database!.db, { sid: recent.sessionId, sub: person.id });
    const rows = await database!.db.select().from(endedSessions);
    expect(rows.map((row) => row.sessionId)).toEqual([recent.sessionId]);
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThanOrEqual(Date.now() + SESSION_MAX_AGE_SECONDS * 1000 - 60_000);
  });

  it("ends every session begun before a new password is set through an invite link", async () => {
    const person = await sam();
    const before = session(person.id);
    const invite = await createInvite(database!.db, { userId: person.id, by: null });
    expect(await acceptInvite(database!.db, { token: invite.token, password: "a brand new password" })).toMatchObject({ status: "accepted" });
    expect(await personForSession(database!.db, before)).toBeNull();
    expect((await personForSession(database!.db, session(person.id, Date.now() + 1)))?.id).toBe(person.id);
  });
});
