import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { findSignInLink } from "@/db/queries/sign-in-links";
import { findUserById } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { verifyPassword } from "@/lib/auth/password";
import { acceptInvite, createInvite, INVITE_LIFETIME_MS, readInvite } from "@/lib/invites";
import { addPerson, deactivatePerson, readPersonDetail } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { addPeople } from "./people-fixture";

describe.each(DATABASE_KINDS)("an invite link (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function invited(now = new Date()) {
    database = await createTestDatabase(kind);
    const [ada] = (await addPeople(database.db, [{ name: "Ada Admin", roles: ["admin"] }])) as [User];
    const added = await addPerson(database.db, { name: "Nia Newcomer", email: " Nia@Example.com ", roles: ["assignee"], groupIds: [], by: ada.id, now });
    return { db: database.db, ada, ...added };
  }

  it("is a random token of 32 bytes of which only the SHA-256 is stored, valid for 7 days", async () => {
    const now = new Date("2026-12-04T10:00:00Z");
    const { db, invite, person } = await invited(now);
    expect(invite.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invite.expiresAt.getTime() - now.getTime()).toBe(INVITE_LIFETIME_MS);
    const stored = await findSignInLink(db, createHash("sha256").update(invite.token).digest("hex"));
    expect(stored).toMatchObject({ purpose: "invite", userId: person.id, usedAt: null });
    expect(JSON.stringify(stored)).not.toContain(invite.token);
    expect(person.email).toBe("nia@example.com");
    expect(person.passwordHash).toBeNull();
  });

  it("sets the password once: the same link a second time is refused and the first password stands", async () => {
    const { db, invite, person } = await invited();
    expect(await readInvite(db, invite.token)).toMatchObject({ name: "Nia Newcomer", email: "nia@example.com" });

    expect((await acceptInvite(db, { token: invite.token, password: "first password" })).status).toBe("accepted");
    expect(await acceptInvite(db, { token: invite.token, password: "second password" })).toEqual({ status: "link_not_valid" });
    expect(await readInvite(db, invite.token)).toBeNull();
    const stored = (await findUserById(db, person.id))!;
    expect(await verifyPassword("first password", stored.passwordHash)).toBe(true);
    expect(await verifyPassword("second password", stored.passwordHash)).toBe(false);
  });

  it("is taken by exactly one of two submissions at once", async () => {
    const { db, invite } = await invited();
    const outcomes = await Promise.all([
      acceptInvite(db, { token: invite.token, password: "one password" }),
      acceptInvite(db, { token: invite.token, password: "another password" }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["accepted", "link_not_valid"]);
  });

  it("is refused once 7 days have passed, like a token that was never made", async () => {
    const made = new Date("2026-12-04T10:00:00Z");
    const { db, invite, person } = await invited(made);
    const later = new Date(made.getTime() + INVITE_LIFETIME_MS);
    expect(await readInvite(db, invite.token, later)).toBeNull();
    expect(await acceptInvite(db, { token: invite.token, password: "too late now", now: later })).toEqual({ status: "link_not_valid" });
    expect(await acceptInvite(db, { token: "A".repeat(43), password: "never a link" })).toEqual({ status: "link_not_valid" });
    expect(await acceptInvite(db, { token: "../../etc", password: "never a link" })).toEqual({ status: "link_not_valid" });
    expect((await findUserById(db, person.id))!.passwordHash).toBeNull();
  });

  it("stops working when a new invite is made for the same person; the new one works", async () => {
    const { db, ada, invite, person } = await invited();
    const again = await createInvite(db, { userId: person.id, by: ada.id });
    expect(await acceptInvite(db, { token: invite.token, password: "old link password" })).toEqual({ status: "link_not_valid" });
    expect((await acceptInvite(db, { token: again.token, password: "new link password" })).status).toBe("accepted");
  });

  it("stops working when the person is deactivated", async () => {
    const { db, ada, invite, person } = await invited();
    await deactivatePerson(db, { personId: person.id, by: ada.id });
    expect(await readInvite(db, invite.token)).toBeNull();
    expect(await acceptInvite(db, { token: invite.token, password: "not any more" })).toEqual({ status: "link_not_valid" });
  });

  it("is recorded on the person's page: added, invited, and the password set through it", async () => {
    const { db, invite, person } = await invited();
    await acceptInvite(db, { token: invite.token, password: "a good password" });
    const detail = (await readPersonDetail(db, person.id))!;
    expect(detail.changes.map((change) => [change.kind, change.byName])).toEqual([
      ["password-set", null],
      ["invited", "Ada Admin"],
      ["added", "Ada Admin"],
    ]);
  });
});
