import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { Db } from "@/db/client";
import { listPeopleForAdmin } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

/** People called `names`, each with an email of their own. */
async function addNamed(db: Db, names: string[]): Promise<void> {
  await insertUsersIfAbsent(
    db,
    names.map((name, index) => ({ name, email: `person-${index}@parley.test`, roles: ["assignee"] })),
  );
}

/** Every page of the list, walked by its `next` cursor: each person's id and name. */
async function walk(db: Db, options: { search?: string; pageSize: number }): Promise<{ id: string; name: string }[][]> {
  const pages: { id: string; name: string }[][] = [];
  let after: string | undefined;
  do {
    const page = await listPeopleForAdmin(db, { ...options, ...(after ? { after } : {}) });
    pages.push(page.people.map(({ id, name }) => ({ id, name })));
    after = page.next;
  } while (after && pages.length < 20);
  return pages;
}

describe.each(DATABASE_KINDS)("the People list (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("returns the next page of people by name after a cursor, and says when there is none", async () => {
    database = await createTestDatabase(kind);
    await addNamed(database.db, ["Gus", "Ada", "Fay", "Bo", "Eve", "Cy", "Dee"]);
    const first = await listPeopleForAdmin(database.db, { pageSize: 3 });
    expect(first.people.map((person) => person.name)).toEqual(["Ada", "Bo", "Cy"]);
    expect(first.next).toBe(first.people[2]!.id);
    const second = await listPeopleForAdmin(database.db, { pageSize: 3, after: first.next! });
    expect(second.people.map((person) => person.name)).toEqual(["Dee", "Eve", "Fay"]);
    const last = await listPeopleForAdmin(database.db, { pageSize: 3, after: second.next! });
    expect(last.people.map((person) => person.name)).toEqual(["Gus"]);
    expect(last.next).toBeUndefined();
  });

  it("neither skips nor repeats people of the same name across pages", async () => {
    database = await createTestDatabase(kind);
    await addNamed(database.db, ["Sam Rivera", "Sam Rivera", "Sam Rivera", "Sam Rivera", "Sam Rivera"]);
    const pages = await walk(database.db, { pageSize: 2 });
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(new Set(pages.flat().map((person) => person.id)).size).toBe(5);
  });

  it("pages through the people a search finds, and only them", async () => {
    database = await createTestDatabase(kind);
    await addNamed(database.db, ["Ann Lee", "Bob Stone", "Cat Lee", "Dan Leeds", "Eli Moss", "Fox Lee"]);
    expect((await walk(database.db, { search: "lee", pageSize: 2 })).map((page) => page.map((person) => person.name))).toEqual([
      ["Ann Lee", "Cat Lee"],
      ["Dan Leeds", "Fox Lee"],
    ]);
  });

  it.each(["not-a-cursor", "00000000-0000-4000-8000-000000000000", "' or 1=1 --"])("reads the first page for the cursor %j, saying it was ignored", async (after) => {
    database = await createTestDatabase(kind);
    await addNamed(database.db, ["Bo", "Ada", "Cy"]);
    const page = await listPeopleForAdmin(database.db, { pageSize: 2, after });
    expect(page.people.map((person) => person.name)).toEqual(["Ada", "Bo"]);
    expect(page.cursorIgnored).toBe(true);
  });
});
