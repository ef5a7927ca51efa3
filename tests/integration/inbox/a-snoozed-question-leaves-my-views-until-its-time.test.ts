import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { loadInbox } from "@/lib/inbox";
import { whatComesNext } from "@/lib/question-view";
import { createRuntime } from "@/lib/runtime";
import { snooze, snoozeOf, wake } from "@/lib/snoozes";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { seedWaits } from "./seed-waits";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");
const LATER = (ms: number) => new Date(NOW.getTime() + ms);

describe.each(DATABASE_KINDS)("snoozing a question (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** Sam has one question assigned to him and one shared with Lee; Lee has one of his own. */
  async function seeded() {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam, lee] = await insertUsersIfAbsent(db, [
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
      { email: "lee@parley.test", name: "Lee Okafor", roles: ["assignee"] },
    ]);
    const [mine, shared, lees] = await seedWaits(db, NOW, [
      { assignee: sam!.id, candidates: [sam!.id], askedAgoMs: HOUR, dueInMs: 2 * HOUR, question: "What was the Lisbon dinner for?" },
      { assignee: null, candidates: [sam!.id, lee!.id], askedAgoMs: HOUR, dueInMs: HOUR, question: "Which hotel did you book?" },
      { assignee: lee!.id, candidates: [lee!.id], askedAgoMs: HOUR, dueInMs: HOUR, question: "Is the offsite still on?" },
    ]);
    return {
      db,
      sam: sam!,
      lee: lee!,
      ids: { mine: mine!.questionId!, shared: shared!.questionId!, lees: lees!.questionId! },
      tasks: { shared: shared!.taskId, lees: lees!.taskId },
    };
  }

  it("takes it out of every view and count of the person until its time, then brings it back by itself", async () => {
    const { db, sam, ids } = await seeded();
    await snooze(db, { questionId: ids.mine, userId: sam.id, choice: "3h", now: NOW });

    const during = await loadInbox(db, sam.id, "assigned", LATER(HOUR), {});
    expect(during.rows.map((row) => row.id)).toEqual([]);
    expect(during.counts.assigned).toBe(0);
    expect(during.counts.snoozed).toBe(1);
    const found = await loadInbox(db, sam.id, "assigned", LATER(HOUR), { search: { text: "lisbon" } });
    expect(found.rows).toEqual([]);
    const snoozedView = await loadInbox(db, sam.id, "snoozed", LATER(HOUR), {});
    expect(snoozedView.snoozed.map((row) => [row.id, row.until.toISOString()])).toEqual([[ids.mine, LATER(3 * HOUR).toISOString()]]);

    const after = await loadInbox(db, sam.id, "assigned", LATER(3 * HOUR + 1), {});
    expect(after.rows.map((row) => row.id)).toEqual([ids.mine]);
    expect(after.counts.snoozed).toBe(0);
  });

  it("is found by a search of everything, as snoozed, and only by its own words", async () => {
    const { db, sam, ids } = await seeded();
    await snooze(db, { questionId: ids.mine, userId: sam.id, choice: "3h", now: NOW });
    await snooze(db, { questionId: ids.shared, userId: sam.id, choice: "3h", now: NOW });

    const found = await loadInbox(db, sam.id, "assigned", LATER(HOUR), { search: { text: "Lisbon" } });
    expect(found.snoozed.map((row) => row.id)).toEqual([ids.mine]);
    expect(found.counts.snoozed).toBe(2);
    expect((await loadInbox(db, sam.id, "assigned", LATER(HOUR), { search: { text: "offsite" } })).snoozed).toEqual([]);
  });

  it("leaves a shared question in the inbox of the others it is put to", async () => {
    const { db, sam, lee, ids } = await seeded();
    await snooze(db, { questionId: ids.shared, userId: sam.id, choice: "1d", now: NOW });
    expect((await loadInbox(db, sam.id, "candidates", NOW, {})).rows.map((row) => row.id)).toEqual([]);
    expect((await loadInbox(db, lee.id, "candidates", NOW, {})).rows.map((row) => row.id)).toEqual([ids.shared]);
  });

  it("is brought back at once by bringing it back", async () => {
    const { db, sam, ids } = await seeded();
    await snooze(db, { questionId: ids.mine, userId: sam.id, choice: "1w", now: NOW });
    expect(await wake(db, { questionId: ids.mine, userId: sam.id, now: NOW })).toBe(true);
    expect(await snoozeOf(db, ids.mine, sam.id, NOW)).toBeNull();
    expect((await loadInbox(db, sam.id, "assigned", NOW, {})).rows.map((row) => row.id)).toEqual([ids.mine]);
  });

  it("refuses to snooze someone else's question, and changes nothing of theirs", async () => {
    const { db, sam, lee, ids } = await seeded();
    await expect(snooze(db, { questionId: ids.lees, userId: sam.id, choice: "1h", now: NOW })).rejects.toBeInstanceOf(AppError);
    expect(await snoozeOf(db, ids.lees, sam.id, NOW)).toBeNull();
    expect((await loadInbox(db, lee.id, "assigned", NOW, {})).rows.map((row) => row.id)).toEqual([ids.lees]);
  });

  it("is not offered as the next question once another is answered", async () => {
    const { db, lee, ids, tasks } = await seeded();
    // Lee has two open questions, his own and the one shared with Sam; he snoozed the shared one.
    await snooze(db, { questionId: ids.shared, userId: lee.id, choice: "1h", now: new Date() });
    const runtime = createRuntime({ db, workflows: [] });
    // Done with his own (as if just answered): the shared one is not offered next while it is snoozed.
    expect((await whatComesNext(db, runtime, lee.id, { id: ids.lees, taskId: tasks.lees })).next).toBeNull();
    await wake(db, { questionId: ids.shared, userId: lee.id, now: new Date() });
    expect((await whatComesNext(db, runtime, lee.id, { id: ids.lees, taskId: tasks.lees })).next?.id).toBe(ids.shared);
  });
});
