import { afterEach, describe, expect, it } from "vitest";
import { listAnswerableQuestions } from "@/db/queries/runtime-questions";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { loadInbox } from "@/lib/inbox";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { type SeededWait, seedWaits } from "./seed-waits";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("the inbox at a page at a time (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("counts every open question, shows the soonest due first a page at a time, and pages on from the last one shown", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam, priya] = await insertUsersIfAbsent(db, [
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
      { email: "priya@parley.test", name: "Priya Shah", roles: ["assignee"] },
    ]);
    const waits: SeededWait[] = [];
    // Sam's own: three overdue, the rest due an hour apart, and two with no deadline, seeded out of order.
    for (let index = 0; index < 55; index++) {
      const hours = ((index * 37) % 55) - 3;
      waits.push({ assignee: sam!.id, candidates: [sam!.id, priya!.id], askedAgoMs: 50 * HOUR - index * MINUTE, dueInMs: hours * HOUR + 30 * MINUTE * Math.sign(hours || 1), question: `Sam's question due in ${hours}h` });
    }
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 3 * HOUR, dueInMs: null, agent: null, title: "Reimbursement" });
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 2 * HOUR, dueInMs: null });
    // Priya's, open to Sam too: one overdue.
    for (let index = 0; index < 4; index++) {
      waits.push({ assignee: priya!.id, candidates: [priya!.id, sam!.id], askedAgoMs: 10 * HOUR + index * MINUTE, dueInMs: index * HOUR - 15 * MINUTE });
    }
    // Not Sam's to answer: closed with nothing on an open slot, an open question on an answered slot, a wait with no question, someone else's.
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: HOUR, dueInMs: HOUR, reason: "away" });
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: HOUR, dueInMs: HOUR, slotStatus: "finished", finishedBy: sam!.id, finishedAgoMs: MINUTE });
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: HOUR, dueInMs: HOUR, withoutQuestion: true });
    waits.push({ assignee: priya!.id, candidates: [priya!.id], askedAgoMs: HOUR, dueInMs: -HOUR });
    await seedWaits(db, NOW, waits);

    const first = await loadInbox(db, sam!.id, "assigned", NOW, { pageSize: 50 });
    // The open question on the slot Sam finished is listed as answered by Sam, not as one to answer.
    expect(first.counts).toEqual({ assigned: 57, candidates: 4, team: 0, overdue: 4, snoozed: 0, answered: 1 });
    expect(first.rows).toHaveLength(50);
    expect(first.rows.every((row) => row.assignedToMe)).toBe(true);
    expect(first.rows[0]!.headline).toBe("Sam's question due in -3h");
    expect(first.next).toBe(first.rows[49]!.id);

    const second = await loadInbox(db, sam!.id, "assigned", NOW, { pageSize: 50, after: first.next });
    expect(second.counts).toEqual(first.counts);
    expect(second.rows).toHaveLength(7);
    expect(second.next).toBeNull();
    // No deadline comes last; a questionnaire is headed by its title and asked by its flow, by the name people know it by.
    expect(second.rows.slice(-2).map((row) => [row.headline, row.dueAt, row.asker])).toEqual([
      ["Reimbursement", null, { kind: "workflow", name: "Expense review", label: "Expense review" }],
      ["What was this charge for?", null, { kind: "agent", name: "Auditor", label: "Auditor" }],
    ]);

    // Page by page, the same questions in the same order as everything Sam may answer, soonest due first.
    const everything = await listAnswerableQuestions(db, sam!.id);
    const assignedIds = everything.filter((question) => question.slot?.assigneeId === sam!.id).map((question) => question.id);
    expect([...first.rows, ...second.rows].map((row) => row.id)).toEqual(assignedIds);

    const answered = await loadInbox(db, sam!.id, "answered", NOW);
    expect(answered.rows).toEqual([]);
    expect(answered.answered.map((row) => row.status)).toEqual(["open"]);
    expect(answered.counts).toEqual(first.counts);
    expect(first.answered).toEqual([]);

    const candidates = await loadInbox(db, sam!.id, "candidates", NOW, { pageSize: 50 });
    expect(candidates.rows.map((row) => row.id)).toEqual(everything.filter((question) => question.slot?.assigneeId !== sam!.id).map((question) => question.id));
    expect(candidates.rows.every((row) => !row.assignedToMe)).toBe(true);

    const overdue = await loadInbox(db, sam!.id, "overdue", NOW, { pageSize: 3 });
    expect(overdue.rows.map((row) => row.dueAt!.getTime() <= NOW.getTime())).toEqual([true, true, true]);
    const overdueRest = await loadInbox(db, sam!.id, "overdue", NOW, { pageSize: 3, after: overdue.next });
    expect([...overdue.rows, ...overdueRest.rows].map((row) => row.id)).toEqual(
      everything.filter((question) => question.slot!.dueAt && question.slot!.dueAt <= NOW).map((question) => question.id),
    );
    expect(overdueRest.next).toBeNull();

    // A page after something that is not a question of theirs starts from the beginning.
    const unknown = await loadInbox(db, sam!.id, "assigned", NOW, { pageSize: 50, after: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
  });
});
