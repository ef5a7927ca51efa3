import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { findAssignees, PEOPLE_FOUND } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("a search for someone to reassign waits to (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("finds people who answer questions by part of their name or email, by name", async () => {
    database = await createTestDatabase(kind);
    await insertUsersIfAbsent(database.db, [
      { name: "Lee Park", email: "lee@parley.test", roles: ["assignee"] },
      { name: "Ann Kleer", email: "ann@parley.test", roles: ["assignee"] },
      { name: "Bo Stone", email: "bo.leeds@parley.test", roles: ["assignee"], away: true },
      { name: "Cy Moss", email: "cy@parley.test", roles: ["assignee"] },
    ]);
    expect(await findAssignees(database.db, " LEE ")).toEqual([
      { name: "Ann Kleer", email: "ann@parley.test", away: false },
      { name: "Bo Stone", email: "bo.leeds@parley.test", away: true },
      { name: "Lee Park", email: "lee@parley.test", away: false },
    ]);
  });

  it("never offers a deactivated person or one who does not answer questions", async () => {
    database = await createTestDatabase(kind);
    await insertUsersIfAbsent(database.db, [
      { name: "Dana Answers", email: "dana.answers@parley.test", roles: ["assignee"] },
      { name: "Dana Gone", email: "dana.gone@parley.test", roles: ["assignee"], deactivatedAt: new Date() },
      { name: "Dana Operates", email: "dana.operates@parley.test", roles: ["operator", "admin"] },
    ]);
    expect((await findAssignees(database.db, "dana")).map((person) => person.name)).toEqual(["Dana Answers"]);
  });

  it("offers at most a few people, the first by name, however many match", async () => {
    database = await createTestDatabase(kind);
    await insertUsersIfAbsent(
      database.db,
      Array.from({ length: 30 }, (_, index) => ({ name: `Tester ${String(index).padStart(2, "0")}`, email: `t${index}@parley.test`, roles: ["assignee" as const] })),
    );
    const found = await findAssignees(database.db, "tester");
    expect(found.map((person) => person.name)).toEqual(Array.from({ length: PEOPLE_FOUND }, (_, index) => `Tester ${String(index).padStart(2, "0")}`));
  });
});
