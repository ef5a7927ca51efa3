import { sql } from "drizzle-orm";
import { createTestKit, DAY } from "parley/testing";
import { type Db, defineApp, queryRows, users } from "parley/workflows";
import { afterEach, describe, expect, it } from "vitest";

const emptyApp = defineApp({ name: "empty", workflows: [] });

/** Each group's members, by email. */
function groupMembers(db: Db) {
  return queryRows<{ group: string; email: string }>(
    db,
    sql`select g.name as group, u.email from groups g join group_members m on m.group_id = g.id join users u on u.id = m.user_id order by 1, 2`,
  );
}

describe("the test kit", () => {
  let kit: { close(): Promise<void> } | undefined;
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
  });

  it("makes the five demo people with their roles, and no groups unless asked", async () => {
    const all = await createTestKit({ app: emptyApp });
    kit = all;
    expect(Object.fromEntries(Object.entries(all.people).map(([name, person]) => [name, person.roles]))).toEqual({
      ada: ["admin"],
      omar: ["operator"],
      sam: ["assignee"],
      priya: ["assignee"],
      lee: ["assignee", "operator"],
    });
    expect(all.people.priya).toMatchObject({ name: "Priya Shah", email: "priya@parley.test" });
    expect(await all.db.$count(users)).toBe(5);
    expect(await groupMembers(all.db)).toEqual([]);
  });

  it("makes only the people named, and the demo groups of them when asked", async () => {
    const some = await createTestKit({ app: emptyApp, people: ["sam", "lee"], groups: true });
    kit = some;
    expect(Object.keys(some.people)).toEqual(["sam", "lee"]);
    expect(await some.db.$count(users)).toBe(2);
    expect(await groupMembers(some.db)).toEqual([
      { group: "finance", email: "sam@parley.test" },
      { group: "on-call", email: "lee@parley.test" },
    ]);
  });

  it("runs its clock with the real time, moved forward by what the test advances", async () => {
    const timed = await createTestKit({ app: emptyApp, people: ["sam"] });
    kit = timed;
    const before = Date.now();
    timed.clock.advance(2 * DAY);
    const moved = timed.clock.now().getTime();
    expect(moved).toBeGreaterThanOrEqual(before + 2 * DAY);
    expect(moved).toBeLessThan(Date.now() + 2 * DAY + 1_000);
  });

  it("checks the app as Parley does at start, before it opens a database", async () => {
    await expect(createTestKit({ app: defineApp({ name: "Expense Review", workflows: [] }) })).rejects.toThrow(/name it with lower-case letters, digits and dashes/);
  });
});
