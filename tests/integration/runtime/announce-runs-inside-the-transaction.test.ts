import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import type { RuntimeChange } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("the announce hook (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("is told of a question asked, its slot and the run's status, naming whose inbox changed", async () => {
    const changes: RuntimeChange[] = [];
    fixture = await createRuntimeFixture(kind, { announce: async (_db, announced) => void changes.push(...announced) });
    const task = await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(changes).toContainEqual({ kind: "question-asked", taskId: task.id, questionId: question!.id, userIds: [fixture.filer.id] });
    expect(changes).toContainEqual({ kind: "slot-opened", taskId: task.id, slotId: question!.slot!.id, userIds: [fixture.filer.id] });
    expect(changes).toContainEqual({ kind: "run-status", taskId: task.id, status: "waiting", userIds: [] });
  });

  it("is told once per transaction, with every change it commits", async () => {
    const calls: (readonly RuntimeChange[])[] = [];
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const { runtime } = fixture.restart({ announce: async (_db, changes) => void calls.push(changes) });
    await runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { text: { method: "1", urgent: "n", attendees: "Ana" } } });
    expect(calls).toEqual([
      [
        expect.objectContaining({ kind: "question-answered", questionId: question!.id }),
        expect.objectContaining({ kind: "slot-finished", slotId: question!.slot!.id }),
      ],
    ]);
  });

  it("writes inside the transaction of the change it announces", async () => {
    fixture = await createRuntimeFixture(kind, {
      announce: async (db, changes) => {
        for (const change of changes) {
          await db.execute(sql`insert into run_events (task_id, kind, data, at) values (${change.taskId}, 'state-entered', ${JSON.stringify({ announced: change.kind })}::jsonb, now())`);
        }
      },
    });
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { text: { method: "1", urgent: "n", attendees: "Ana" } } });
    const announced = await queryRows<{ kind: string }>(fixture.database.db, sql`select data->>'announced' as kind from run_events where data ? 'announced'`);
    expect(announced.map((row) => row.kind)).toContain("question-answered");
  });

  it("announces nothing, and nothing is committed, when the change rolls back", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const calls: (readonly RuntimeChange[])[] = [];
    const { runtime } = fixture.restart({
      announce: async (_db, changes) => {
        calls.push(changes);
        throw new Error("the notification could not be written");
      },
    });
    const submit = runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { text: { method: "1", urgent: "n", attendees: "Ana" } } });
    await expect(submit).rejects.toThrow("the notification could not be written");
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({ status: "open", answer: null, slot: { status: "open" } });
    expect(calls).toHaveLength(1);
  });
});
