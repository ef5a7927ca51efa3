import { getTableName, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { listAnsweredBy, readOpenInbox } from "@/db/queries/inbox";
import { listAnswerableQuestions } from "@/db/queries/runtime-questions";
import { listOpenSlots, readSlaPeriod } from "@/db/queries/sla";
import { slotAnswerableBy } from "@/db/queries/slot-parties";
import { asks, groupMembers, groups, questionSnoozes, slots, users } from "@/db/schema";

const USER = "00000000-0000-4000-8000-000000000001";
const dialect = new PgDialect();

/** The SQL text of the one statement `read` sends, from a database that records it and answers `row` (none when null). */
async function statementOf(read: (db: Db) => Promise<unknown>, row: Record<string, unknown> | null = {}): Promise<string> {
  const sent: SQL[] = [];
  const db = {
    execute: async (query: SQL) => {
      sent.push(query);
      return { rows: row ? [row] : [] };
    },
  } as unknown as Db;
  await read(db);
  expect(sent).toHaveLength(1);
  return dialect.sqlToQuery(sent[0]!).sql;
}

/** Column references written as text over the statements' table aliases (`a.slot_id`, `s.due_at`, `z.until`, `g.name`) rather than from the schema. */
const TEXT_COLUMN = /(?<![\w".])\b[aszecgu]\.[a-z_]+/g;

describe("the read models name the schema's tables and columns", () => {
  it("the inbox's statement names its tables and columns from the schema, as quoted names over its aliases", async () => {
    const text = await statementOf(
      (db) => readOpenInbox(db, USER, "everything", new Date("2026-12-01T00:00:00Z"), { limit: 10, after: USER }, { text: "invoice", asker: "bot", due: "week" }),
      { assigned: 0, candidates: 0, team: 0, overdue: 0, matching: 0, askers: [], id: null },
    );
    expect(text).toContain(`"${getTableName(asks)}" "a"`);
    expect(text).toContain(`"${getTableName(slots)}" "s"`);
    expect(text).toContain(`"s"."${slots.assigneeId.name}"`);
    expect(text).toContain(`"s"."${slots.candidateGroupIds.name}"`);
    expect(text).toContain(`"a"."${asks.slotId.name}"`);
    expect(text).toContain(`"z"."${questionSnoozes.until.name}"`);
    expect(text).toContain(`"${getTableName(groupMembers)}"."${groupMembers.userId.name}"`);
    expect(text).toContain(`"${getTableName(users)}"."${users.name.name}"`);
    expect(text.match(TEXT_COLUMN) ?? []).toEqual([]);
  });

  it("what someone answered is read with the schema's names too", async () => {
    const text = await statementOf((db) => listAnsweredBy(db, USER, 20, { text: "invoice" }));
    expect(text).toContain(`"a"."${asks.answeredBy.name}"`);
    expect(text).toContain(`"s"."${slots.finishedBy.name}"`);
    expect(text.match(TEXT_COLUMN) ?? []).toEqual([]);
  });

  it("the SLA page's open waits and its period's history are read with the schema's names", async () => {
    const open = await statementOf((db) => listOpenSlots(db, { workflow: "w", agent: "x", assigneeId: USER, atRiskOnly: true }, new Date(), 50, USER));
    expect(open).toContain(`"s"."${slots.candidateGroupIds.name}"`);
    expect(open).toContain(`"c"."${slots.dueAt.name}"`);
    expect(open).toContain(`"${getTableName(groups)}" "g"`);
    expect(open.match(TEXT_COLUMN) ?? []).toEqual([]);
    const period = await statementOf((db) => readSlaPeriod(db, new Date(0), new Date(), { bounds: [1000] }), { report: null, longest: null, waits: null, reasons: null, latest: null });
    expect(period).toContain(`"s"."${slots.finishedBy.name}"`);
    expect(period).toContain(`"a"."${asks.reason.name}"`);
    expect(period.match(TEXT_COLUMN) ?? []).toEqual([]);
  });

  it("a person's answerable questions are read with the schema's names", async () => {
    const text = await statementOf((db) => listAnswerableQuestions(db, USER, { limit: 20, after: USER }), null);
    expect(text).toContain(`"a"."${asks.declineNote.name}"`);
    expect(text).toContain(`"s"."${slots.delegatedFrom.name}"`);
    expect(text.match(TEXT_COLUMN) ?? []).toEqual([]);
  });

  it("a slot's parties over an unaliased slot are its bare column names", () => {
    const text = dialect.sqlToQuery(sql`select 1 from slots where ${slotAnswerableBy("", USER)}`).sql;
    expect(text).toContain(`"${slots.claimedBy.name}" is null`);
    expect(text).not.toContain(`"s".`);
  });
});
