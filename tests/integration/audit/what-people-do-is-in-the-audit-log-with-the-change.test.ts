import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { authenticateApiKey, createApiKey, revokeKey } from "@/lib/api-keys";
import { type AuditLine, loadAuditPage } from "@/lib/audit";
import { addGroupMember, createGroup, deleteGroup, renameGroup } from "@/lib/groups";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

/*
 * The audit log: who did what and when, each line written with the change it records — by PostgreSQL
 * from the run's own events and the changes to people, by the code for groups and keys.
 */
describe.each(DATABASE_KINDS)("the audit log (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  const label = (name: string) => (name === "ReviewClaim" ? "Expense review" : name);
  /** A line as an admin reads it: "Omar Operator reassigned “…” — from Sam Rivera to Priya Shah". */
  const sentence = (line: AuditLine) =>
    [line.actor.name, line.verb, line.subject?.label].filter(Boolean).join(" ") + (line.detail ? ` — ${line.detail}` : "");
  const read = async () => (await loadAuditPage(fixture.database.db, {}, { workflowLabel: label })).lines.map(sentence);

  it("says who reassigned and who answered a question, newest first", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    await fixture.runtime.reassignSlot({ slotId: question!.slot!.id, to: fixture.priya.id, by: fixture.omar.id });
    const answered = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.priya.id, answer: { form: { answer: "Client dinner with Acme." } } });
    expect(answered.status).toBe("answered");

    const lines = await read();
    const title = `“${question!.title ?? question!.spec.title ?? question!.spec.fields[0]!.question}”`;
    expect(lines).toEqual([`Priya Shah answered ${title}`, `Omar Operator reassigned ${title} — from Sam Rivera to Priya Shah`]);
    const [line] = (await loadAuditPage(fixture.database.db, {}, { workflowLabel: label })).lines;
    expect(line).toMatchObject({ action: "answered", taskId: task.id, questionId: question!.id, actor: { kind: "person", href: `/admin/people/${fixture.priya.id}` } });
  });

  it("says who declined, with the note the asker was told", async () => {
    fixture = await createExampleFixture(kind);
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    await fixture.runtime.decline({ questionId: question!.id, by: fixture.sam.id, note: "Not my claim." });

    expect((await read())[0]).toMatch(/^Sam Rivera declined “.+” — told the asker “Not my claim\.”$/);
  });

  it("says who cancelled a run and how many questions went with it", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    await fixture.runtime.cancelRun(ReviewClaim, task.id, { by: fixture.omar.id });

    expect((await read())[0]).toBe("Omar Operator cancelled a run of Expense review — 1 open question withdrawn");
  });

  it("writes nothing for a change that did not happen", async () => {
    fixture = await createExampleFixture(kind);
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: { form: { answer: "Client dinner with Acme." } } });
    // Too late: the wait was answered. Neither the reassignment nor a second answer is recorded.
    expect((await fixture.runtime.reassignSlot({ slotId: question!.slot!.id, to: fixture.priya.id, by: fixture.omar.id })).status).toBe("not_open");
    expect((await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: { form: { answer: "Again." } } })).status).not.toBe("answered");

    expect(await read()).toEqual([expect.stringMatching(/^Sam Rivera answered /)]);
  });

  it("says who made, renamed and deleted a group, and whom they added to it", async () => {
    fixture = await createExampleFixture(kind);
    const { db } = fixture.database;
    const group = await createGroup(db, { name: "Finance", by: fixture.omar.id });
    await addGroupMember(db, { groupId: group.id, userId: fixture.sam.id, by: fixture.omar.id });
    await renameGroup(db, { groupId: group.id, name: "treasury", by: fixture.omar.id });
    await deleteGroup(db, { groupId: group.id, by: fixture.omar.id });

    expect(await read()).toEqual([
      "Omar Operator deleted the group treasury — 1 member",
      "Omar Operator changed Sam Rivera — Left the group treasury: the group was deleted",
      "Omar Operator renamed the group finance — to treasury",
      "Omar Operator changed Sam Rivera — Added to the group finance",
      "Omar Operator made the group finance",
    ]);
  });

  it("says who made and revoked an agent key, and when it was used, at most once a minute", async () => {
    fixture = await createExampleFixture(kind);
    const { db } = fixture.database;
    const made = await createApiKey(db, { kind: "agent", name: "Release bot", by: fixture.omar.id, now: new Date("2026-12-06T09:00:00Z") });
    await authenticateApiKey(db, made.secret, new Date("2026-12-06T09:01:00Z"));
    await authenticateApiKey(db, made.secret, new Date("2026-12-06T09:01:30Z"));
    await revokeKey(db, { id: made.key.id, kind: "agent", by: fixture.omar.id, now: new Date("2026-12-06T09:02:00Z") });

    expect(await read()).toEqual([
      "Omar Operator revoked the agent key “Release bot”",
      "The key “Release bot” was used",
      "Omar Operator made the agent key “Release bot”",
    ]);
  });

  it("reads a long log a page at a time, each line once, narrowed to a person, a kind or some days", async () => {
    fixture = await createExampleFixture(kind);
    const { db } = fixture.database;
    // 7 lines a day apart, alternating between two people.
    await db.execute(sql`insert into audit_events (at, action, category, actor_id, detail)
      select timestamptz '2026-12-01 10:00:00+00' + n * interval '1 day', 'group-created', 'people',
             case when n % 2 = 0 then ${fixture.omar.id}::uuid else ${fixture.sam.id}::uuid end, jsonb_build_object('name', 'g' || n)
      from generate_series(0, 6) n`);
    const all: string[] = [];
    let before: number | undefined;
    for (let page = 0; page < 5; page++) {
      const read = await loadAuditPage(db, {}, { workflowLabel: label, pageSize: 3, ...(before ? { before } : {}) });
      all.push(...read.lines.map((line) => line.verb + " " + line.subject!.label));
      if (read.next === null) break;
      before = read.next;
    }
    expect(all).toEqual(["g6", "g5", "g4", "g3", "g2", "g1", "g0"].map((name) => `made the group ${name}`));

    const sams = await loadAuditPage(db, { actorId: fixture.sam.id }, { workflowLabel: label });
    expect(sams.lines.map((line) => line.subject!.label)).toEqual(["the group g5", "the group g3", "the group g1"]);
    const days = await loadAuditPage(db, { from: new Date("2026-12-02T00:00:00Z"), until: new Date("2026-12-04T00:00:00Z") }, { workflowLabel: label });
    expect(days.lines.map((line) => line.subject!.label)).toEqual(["the group g2", "the group g1"]);
    expect((await loadAuditPage(db, { category: "keys" }, { workflowLabel: label })).lines).toEqual([]);
  });
});
