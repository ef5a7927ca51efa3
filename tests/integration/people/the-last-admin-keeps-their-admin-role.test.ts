import { afterEach, describe, expect, it } from "vitest";
import { findUserById } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { changeRoles, deactivatePerson, reactivatePerson } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { addPeople, refusal } from "./people-fixture";

describe.each(DATABASE_KINDS)("the last admin (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("cannot remove their own admin role, and is told to make someone else an admin first", async () => {
    database = await createTestDatabase(kind);
    const [ada] = (await addPeople(database.db, [{ name: "Ada Admin", roles: ["admin", "operator"] }])) as [User];

    expect(await refusal(changeRoles(database.db, { personId: ada.id, roles: ["operator"], by: ada.id }))).toMatchObject({
      code: "conflict",
      message: "You are the last admin: make someone else an admin before removing your own admin role.",
    });
    expect((await findUserById(database.db, ada.id))!.roles).toEqual(["admin", "operator"]);
  });

  it("cannot deactivate themselves", async () => {
    database = await createTestDatabase(kind);
    const [ada] = (await addPeople(database.db, [{ name: "Ada Admin", roles: ["admin"] }])) as [User];

    expect(await refusal(deactivatePerson(database.db, { personId: ada.id, by: ada.id }))).toMatchObject({
      code: "conflict",
      message: "You are the last admin: make someone else an admin before deactivating yourself.",
    });
    expect((await findUserById(database.db, ada.id))!.deactivatedAt).toBeNull();
  });

  it("can give up the admin role once someone else holds it", async () => {
    database = await createTestDatabase(kind);
    const [ada, bo] = (await addPeople(database.db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Bo Operator", roles: ["operator"] },
    ])) as [User, User];
    await changeRoles(database.db, { personId: bo.id, roles: ["operator", "admin"], by: ada.id });

    const changed = await changeRoles(database.db, { personId: ada.id, roles: ["assignee"], by: ada.id });
    expect(changed.roles).toEqual(["assignee"]);
  });

  it("is counted among active admins only: a deactivated admin does not keep Parley administered", async () => {
    database = await createTestDatabase(kind);
    const [ada, cy] = (await addPeople(database.db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Cy Admin", roles: ["admin"] },
    ])) as [User, User];
    await deactivatePerson(database.db, { personId: cy.id, by: ada.id });

    expect(await refusal(changeRoles(database.db, { personId: ada.id, roles: ["operator"], by: ada.id }))).toMatchObject({ code: "conflict" });
    // Cy back: Ada may step down.
    await reactivatePerson(database.db, { personId: cy.id, by: ada.id });
    expect((await changeRoles(database.db, { personId: ada.id, roles: ["operator"], by: ada.id })).roles).toEqual(["operator"]);
  });

  it.each([
    ["removes each admin's admin role", "roles"],
    ["deactivates each admin", "deactivate"],
  ] as const)("stays when two changes at the same moment each remove one of two admins: one wins, the other is refused (%s)", async (_, what) => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [ada, cy, bo] = (await addPeople(db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Cy Admin", roles: ["admin"] },
      { name: "Bo Operator", roles: ["operator"] },
    ])) as [User, User, User];
    // Recorded as made by Bo, so that the two changes share no row but the admins'.
    const change = (personId: string) => (what === "roles" ? changeRoles(db, { personId, roles: ["operator"], by: bo.id }) : deactivatePerson(db, { personId, by: bo.id }));

    // On PostgreSQL, hold both admins' rows for a moment so that both changes are under way at once,
    // each having looked at who the admins are before either commits (PGlite runs one transaction at a time).
    let locked = (): void => {};
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const held = database.postgres?.begin(async (sql) => {
      await sql`select id from users where id in (${ada.id}, ${cy.id}) for update`;
      locked();
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    if (held) await taken;
    const outcomes = await Promise.allSettled([change(cy.id), change(ada.id)]);
    await held;

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const admins = [await findUserById(db, ada.id), await findUserById(db, cy.id)].filter((person) => person!.roles.includes("admin") && !person!.deactivatedAt);
    expect(admins).toHaveLength(1);
  });
});
