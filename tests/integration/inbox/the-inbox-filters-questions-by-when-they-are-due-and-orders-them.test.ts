import { afterEach, describe, expect, it } from "vitest";
import { type InboxSearch, readOpenInbox } from "@/db/queries/inbox";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { loadInbox } from "@/lib/inbox";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { seedWaits } from "./seed-waits";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("the inbox by when questions are due, in the order asked for (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** Five questions for Sam, asked an hour apart (oldest first), each due differently. */
  async function seeded() {
    database = await createTestDatabase(kind);
    const [sam] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    const wait = (question: string, askedAgoMs: number, dueInMs: number | null) => ({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs, dueInMs, question });
    await seedWaits(database.db, NOW, [
      wait("Overdue", 5 * HOUR, -HOUR),
      wait("Due in two hours", 4 * HOUR, 2 * HOUR),
      wait("Due in three days", 3 * HOUR, 3 * DAY),
      wait("Due in ten days", 2 * HOUR, 10 * DAY),
      wait("No deadline", HOUR, null),
    ]);
    const db = database.db;
    return {
      /** The questions of a page, and how many the filter keeps. */
      async read(find: InboxSearch, page: { limit: number; after?: string | null } = { limit: 50 }) {
        const found = await readOpenInbox(db, sam!.id, "assigned", NOW, page, find);
        expect(found.counts.assigned).toBe(5);
        return { questions: found.rows.map((row) => row.firstQuestion), matching: found.matching, next: found.next };
      },
      db,
      sam: sam!,
    };
  }

  it("keeps the overdue questions", async () => {
    const { read } = await seeded();
    expect(await read({ due: "overdue" })).toEqual({ questions: ["Overdue"], matching: 1, next: null });
  });

  it("keeps the questions due within a day (not those already overdue)", async () => {
    const { read } = await seeded();
    expect(await read({ due: "day" })).toEqual({ questions: ["Due in two hours"], matching: 1, next: null });
  });

  it("keeps the questions due within a week (a day's among them)", async () => {
    const { read } = await seeded();
    expect(await read({ due: "week" })).toEqual({ questions: ["Due in two hours", "Due in three days"], matching: 2, next: null });
  });

  it("keeps the questions with no deadline", async () => {
    const { read } = await seeded();
    expect(await read({ due: "none" })).toEqual({ questions: ["No deadline"], matching: 1, next: null });
  });

  it("orders soonest due first by default, no deadline last", async () => {
    const { read } = await seeded();
    expect((await read({})).questions).toEqual(["Overdue", "Due in two hours", "Due in three days", "Due in ten days", "No deadline"]);
  });

  it("orders newest asked first, a page at a time", async () => {
    const { read } = await seeded();
    const first = await read({ sort: "newest" }, { limit: 2 });
    expect(first.questions).toEqual(["No deadline", "Due in ten days"]);
    const second = await read({ sort: "newest" }, { limit: 2, after: first.next });
    expect(second.questions).toEqual(["Due in three days", "Due in two hours"]);
    const last = await read({ sort: "newest" }, { limit: 2, after: second.next });
    expect(last).toEqual({ questions: ["Overdue"], matching: 5, next: null });
  });

  it("orders oldest asked first, a page at a time, within a due filter", async () => {
    const { read } = await seeded();
    const first = await read({ sort: "oldest", due: "week" }, { limit: 1 });
    expect(first).toMatchObject({ questions: ["Due in two hours"], matching: 2 });
    expect(await read({ sort: "oldest", due: "week" }, { limit: 1, after: first.next })).toEqual({ questions: ["Due in three days"], matching: 2, next: null });
  });

  it("shows everything soonest due first when the page's due or order is not one it knows, and says so", async () => {
    const { db, sam } = await seeded();
    const inbox = await loadInbox(db, sam.id, "assigned", NOW, { search: { due: "yesterday'; --", sort: ["newest", "oldest"] } });
    expect(inbox.rows.map((row) => row.headline)).toEqual(["Overdue", "Due in two hours", "Due in three days", "Due in ten days", "No deadline"]);
    expect(inbox.search).toEqual({ text: null, asker: null, due: null, sort: "due" });
    expect(inbox.notUnderstood).toEqual([
      "The due filter “yesterday'; --” is not one we know, so the list shows every deadline.",
      "The order “newest,oldest” is not one we know, so the list shows the soonest due first.",
    ]);
  });
});
