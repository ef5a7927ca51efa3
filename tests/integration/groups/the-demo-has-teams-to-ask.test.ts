import { afterEach, describe, expect, it } from "vitest";
import { listAskable } from "@/lib/people";
import { seedDemoUsers } from "@/lib/demo-people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("the demo people (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  it("come with teams an agent can ask, and seeding again changes nothing", async () => {
    database = await createTestDatabase(kind);
    await seedDemoUsers(database.db);
    await seedDemoUsers(database.db);

    const { people, groups } = await listAskable(database.db, "");
    expect(groups).toEqual([
      { name: "finance", members: 2, present: 2 },
      { name: "on-call", members: 2, present: 2 },
    ]);
    expect(people.find((person) => person.email === "priya@parley.test")?.groups).toEqual(["finance", "on-call"]);
  });
});
