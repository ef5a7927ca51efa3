import { getTableColumns, getTableName, is, type SQL, sql } from "drizzle-orm";
import { PgDialect, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { findApiAskEscalation, findAskCallbackEndpoint, insertApiAsk, listApiAsks } from "@/db/queries/api-asks";
import { findAnswerLink, insertAnswerLink, takeAnswerLink } from "@/db/queries/answer-links";
import { findQuestionIdOfApiAsk } from "@/db/queries/api-ask-questions";
import { findLiveApiKeyAndTouch } from "@/db/queries/api-keys";
import { readConversationWindow } from "@/db/queries/conversation-window";
import { enterState } from "@/db/queries/enter-state";
import { seedGroups } from "@/db/queries/group-routing";
import { renameGroupRow } from "@/db/queries/groups";
import { listAnsweredBy, readOpenInbox } from "@/db/queries/inbox";
import { insertPersonNotifications, markInboxSeen } from "@/db/queries/person-notifications";
import { readOperationalCounts } from "@/db/queries/metrics";
import { cancelRunInTransaction } from "@/db/queries/run-cancels";
import { recordSignInFailure } from "@/db/queries/sign-in-throttle";
import { claimDueNotices, findNoticeSource, listFailedDeliveries, listNoticesForQuestion, queueEvents, queueNotice, recordDelivery, renewDeliveryLeases } from "@/db/queries/notification-outbox";
import { appendStep, openConversation, recordAnswer } from "@/db/queries/runtime-conversations";
import { claimNextJob, failJob, finishJob, releaseJob, renewJobLease, requeueFailedJobs, trackedRowReads } from "@/db/queries/runtime-jobs";
import { fireDueEscalations, listEscalationSteps } from "@/db/queries/runtime-escalations";
import { countRunEventsBefore, listAnswersOfQuestions, listTurnHandoffs } from "@/db/queries/runtime-events";
import { closeQuestionWithNothing, countRefusedAttempt, depositAnswer, insertPersonQuestion, listAnswerableQuestions } from "@/db/queries/runtime-questions";
import { depositIntoSlot, expireDueSlots, findSlotForExplanation, listAnswerableSlots, listSlotsForTask } from "@/db/queries/runtime-slots";
import { listOpenSlots, readSlaPeriod } from "@/db/queries/sla";
import { slotAnswerableBy } from "@/db/queries/slot-parties";
import { findDefinitionDescriptions, runsOnOtherDefinitionsSql } from "@/db/queries/workflow-definitions";
import * as schema from "@/db/schema";
import { apiAsks, apiKeys, asks, auditEvents, conversationMessages, conversations, groupMembers, slotEscalations, groups, jobs, notificationOutbox, personNotifications, questionSnoozes, runEvents, signInLinks, signInThrottle, slots, tasks, users, workflowDefinitions, workflowInstances } from "@/db/schema";

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

/** The SQL text of each statement `write` sends, from a database that records them and answers each with `rows`. */
async function statementsOf(write: (db: Db) => Promise<unknown>, rows: Record<string, unknown>[] = []): Promise<string[]> {
  const sent: SQL[] = [];
  const db = {
    execute: async (query: SQL) => {
      sent.push(query);
      return { rows };
    },
  } as unknown as Db;
  await write(db);
  return sent.map((query) => dialect.sqlToQuery(query).sql);
}

/** Every column name of the platform's schema. */
const SCHEMA_COLUMNS = new Set(
  Object.values(schema).flatMap((value) => (is(value, PgTable) ? Object.values(getTableColumns(value)).map((column) => column.name) : [])),
);

/**
 * The schema's column names a statement writes as bare text: what is left once the names it takes from
 * the schema (quoted), string literals, comments, parameters, casts and the names it gives its own
 * output columns (`as x`) are taken out.
 */
function bareColumns(text: string): string[] {
  const left = text
    .replace(/--[^\n]*/g, " ")
    .replace(/\bfor (no )?key (update|share)\b/g, " ") // a row lock's words, not sign_in_throttle's column
    .replace(/"(?:[^"]|"")*"/g, " ")
    .replace(/'(?:[^']|'')*'/g, " ")
    .replace(/\$\d+/g, " ")
    .replace(/::[a-z_]+(\[\])?/g, " ")
    .replace(/\bas\s+[a-z_]+/g, " ");
  return (left.match(/\b[a-z_][a-z0-9_]*\b/g) ?? []).filter((word) => SCHEMA_COLUMNS.has(word));
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
    expect(text).toContain(`count(distinct "sample"."${asks.slotId.name}")`);
    expect(text.match(TEXT_COLUMN) ?? []).toEqual([]);
    expect(bareColumns(text)).toEqual([]);
  });

  it("what someone answered is read with the schema's names too", async () => {
    const text = await statementOf((db) => listAnsweredBy(db, USER, 20, { text: "invoice" }));
    expect(text).toContain(`"a"."${asks.answeredBy.name}"`);
    expect(text).toContain(`"s"."${slots.finishedBy.name}"`);
    expect(text).toContain(`on "a"."${asks.id.name}" = "mine"."${asks.id.name}"`);
    expect(text.match(TEXT_COLUMN) ?? []).toEqual([]);
    expect(bareColumns(text)).toEqual([]);
  });

  it("the SLA page's open waits and its period's history are read with the schema's names", async () => {
    const open = await statementOf((db) => listOpenSlots(db, { workflow: "w", agent: "x", assigneeId: USER, atRiskOnly: true }, new Date(), 50, USER));
    expect(open).toContain(`"s"."${slots.candidateGroupIds.name}"`);
    expect(open).toContain(`"c"."${slots.dueAt.name}"`);
    expect(open).toContain(`"${getTableName(groups)}" "g"`);
    expect(open).toContain(`"q"."${asks.id.name}" as question_id`);
    expect(open.match(TEXT_COLUMN) ?? []).toEqual([]);
    expect(bareColumns(open)).toEqual([]);
    const period = await statementOf((db) => readSlaPeriod(db, new Date(0), new Date(), { bounds: [1000] }), { report: null, longest: null, waits: null, reasons: null, latest: null });
    expect(period).toContain(`"s"."${slots.finishedBy.name}"`);
    expect(period).toContain(`"a"."${asks.reason.name}"`);
    expect(period).toContain(`from "history" "h"`);
    expect(period.match(TEXT_COLUMN) ?? []).toEqual([]);
    expect(bareColumns(period)).toEqual([]);
  });

  it("the operational counts (open work by workflow and by team, the queues) are read with the schema's names", async () => {
    const texts = await statementsOf((db) => readOperationalCounts(db, new Date()), [{}]);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain(`from open_workflows "w" where "w"."${slots.workflow.name}" is not null`);
    expect(texts[1]).toContain(`unnest("s"."${slots.candidateGroupIds.name}") as "team"("${groups.id.name}")`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("a person's answerable questions are read with the schema's names", async () => {
    const text = await statementOf((db) => listAnswerableQuestions(db, USER, { limit: 20, after: USER }), null);
    expect(text).toContain(`"a"."${asks.declineNote.name}"`);
    expect(text).toContain(`"s"."${slots.delegatedFrom.name}"`);
    expect(text).toContain(`join page on "page"."${asks.id.name}" = "a"."${asks.id.name}"`);
    expect(text).toContain(`order by "page".due_order, "page"."${slots.openedAt.name}", "page"."${asks.slotId.name}"`);
    expect(text).toContain(`(select "cursor"."${asks.askedAt.name}" from cursor)`);
    expect(text.match(TEXT_COLUMN) ?? []).toEqual([]);
    expect(bareColumns(text)).toEqual([]);
  });

  it("a slot's parties over an unaliased slot are its bare column names", () => {
    const text = dialect.sqlToQuery(sql`select 1 from slots where ${slotAnswerableBy("", USER)}`).sql;
    expect(text).toContain(`"${slots.claimedBy.name}" is null`);
    expect(text).not.toContain(`"s".`);
  });
});

describe("the write statements name the schema's tables and columns", () => {
  const at = new Date("2026-12-01T09:00:00Z");

  it("an answer's deposit (one statement) names every table and column from the schema", async () => {
    const [text, ...more] = await statementsOf((db) => depositAnswer(db, { questionId: USER, slotId: USER, by: USER, payload: {}, answer: {}, at }));
    expect(more).toEqual([]);
    expect(text).toContain(`update "${getTableName(slots)}" set "${slots.status.name}" = 'finished'`);
    expect(text).toContain(`"won"."${slots.workflowInstanceId.name}"`);
    expect(text).toContain(`insert into "${getTableName(jobs)}" ("${jobs.kind.name}"`);
    expect(text).toContain(`insert into "${getTableName(runEvents)}" ("${runEvents.taskId.name}"`);
    expect(bareColumns(text!)).toEqual([]);
  });

  it("asking a person, counting a refused attempt and closing with nothing name them from the schema too", async () => {
    const [asked] = await statementsOf(
      (db) =>
        insertPersonQuestion(db, {
          id: USER, slotId: USER, taskId: USER, workflowInstanceId: USER, workflow: "w", state: "S", event: "E", stepKey: "k", title: null,
          spec: { fields: [] } as never, responseSchema: null, attemptsAllowed: 3, assigneeId: USER, candidateIds: [], candidateGroupIds: [],
          delegatedFrom: null, askedBy: null, dueAt: null, at, trackedStatus: () => sql`select 1`, events: [],
        }),
      [{ id: USER, slot_id: USER, created: true }],
    );
    expect(asked).toContain(`on conflict ("${asks.stepKey.name}") where "${asks.stepKey.name}" is not null do nothing`);
    expect(asked).toContain(`update "${getTableName(workflowInstances)}" set "${workflowInstances.status.name}" = 'waiting'`);
    expect(bareColumns(asked!)).toEqual([]);
    const [counted] = await statementsOf((db) => countRefusedAttempt(db, { questionId: USER, seenAttemptsUsed: 1, by: USER, events: [] }));
    expect(counted).toContain(`set "${asks.attemptsUsed.name}" = "${getTableName(asks)}"."${asks.attemptsUsed.name}" + 1`);
    expect(bareColumns(counted!)).toEqual([]);
    const [closed] = await statementsOf((db) => closeQuestionWithNothing(db, { questionId: USER, reason: "declined", declined: { by: USER, note: null }, payload: null, events: [], at }));
    expect(bareColumns(closed!)).toEqual([]);
  });

  it("an API ask is stored, audited and read back with the schema's names", async () => {
    const [stored] = await statementsOf((db) =>
      insertApiAsk(db, {
        id: USER, apiKeyId: USER, idempotencyKey: "once", requestHash: "h", questionId: USER, title: "Ship it?", body: null, context: null,
        responseSchema: null, to: "ada@parley.test", assigneeId: USER, candidateIds: [], dueAt: null, attempts: 3, callbackUrl: null,
        metadata: null, escalation: null, createdAt: at,
      }),
    );
    expect(stored).toContain(`"${apiAsks.to.name}"`);
    expect(stored).toContain(`on conflict ("${apiAsks.apiKeyId.name}", "${apiAsks.idempotencyKey.name}") where "${apiAsks.idempotencyKey.name}" is not null`);
    expect(stored).toContain(`insert into "${getTableName(auditEvents)}" ("${auditEvents.at.name}"`);
    expect(bareColumns(stored!)).toEqual([]);
    const reads = [
      ...(await statementsOf((db) => listApiAsks(db, USER, { limit: 20, after: { createdAt: at, id: USER }, status: "open" }))),
      ...(await statementsOf((db) => findAskCallbackEndpoint(db, USER))),
      ...(await statementsOf((db) => findApiAskEscalation(db, USER))),
      ...(await statementsOf((db) => findQuestionIdOfApiAsk(db, USER))),
    ];
    expect(reads[0]).toContain(`"a"."${apiAsks.questionStatus.name}" = `);
    for (const text of reads) expect(bareColumns(text)).toEqual([]);
  });

  it("the outbox's queueing, claiming, lease renewal and delivery record, and its reads, name the schema's columns", async () => {
    const notice = { id: USER, kind: "question-opened" } as never;
    const event = { questionId: USER, kind: "ask-answered" as const, target: "global", event: {} as never };
    const deliverable = { notifiers: ["email"], targets: ["global"] };
    const texts = [
      ...(await statementsOf((db) => queueNotice(db, notice, ["email"], at))),
      ...(await statementsOf((db) => queueEvents(db, [event], at))),
      ...(await statementsOf((db) => claimDueNotices(db, { at, leaseUntil: at, limit: 10, deliverable }))),
      ...(await statementsOf((db) => renewDeliveryLeases(db, [{ id: 1, deliveries: 1 }], at))),
      ...(await statementsOf((db) => recordDelivery(db, { id: 1, deliveries: 1 }, { report: { status: "delivered" } as never, retryAt: null, at }))),
      ...(await statementsOf((db) => findNoticeSource(db, USER))),
      ...(await statementsOf((db) => listNoticesForQuestion(db, USER))),
      ...(await statementsOf((db) => listFailedDeliveries(db, { limit: 10 }))),
    ];
    expect(texts).toHaveLength(8);
    expect(texts[1]).toContain(`as "r"("${notificationOutbox.questionId.name}" uuid`);
    expect(texts[2]).toContain(`update "${getTableName(notificationOutbox)}" "o" set "${notificationOutbox.status.name}" = 'delivering'`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("a job's claim, lease renewal, finish, release, failure and retry name the schema's tables and columns", async () => {
    const rows = trackedRowReads([{ name: "w", tracks: tasks }]);
    const texts = [
      ...(await statementsOf((db) => claimNextJob(db, { workerId: "worker", at, leaseMs: 1000, taskId: USER, rows }))),
      ...(await statementsOf((db) => claimNextJob(db, { workerId: "worker", at, leaseMs: 1000 }))),
      ...(await statementsOf((db) => renewJobLease(db, { id: 1, workerId: "worker", until: at }))),
      ...(await statementsOf((db) => finishJob(db, { id: 1, workerId: "worker", at }))),
      ...(await statementsOf((db) => releaseJob(db, { id: 1, workerId: "worker" }))),
      ...(await statementsOf((db) => failJob(db, { jobId: 1, workerId: "worker", instanceId: USER, taskId: USER, tracks: tasks, error: "boom", retryable: false, events: [], at }))),
      ...(await statementsOf((db) => requeueFailedJobs(db, { workflow: "w", taskId: USER, tracks: tasks, by: USER, at }))),
    ];
    expect(texts).toHaveLength(7);
    expect(texts[0]).toContain(`from "${getTableName(jobs)}" "j" join "${getTableName(workflowInstances)}" "wi" on "wi"."${workflowInstances.id.name}" = "j"."${jobs.workflowInstanceId.name}"`);
    expect(texts[0]).toContain(`for update of j, wi skip locked`);
    expect(texts[0]).toContain(`update "${getTableName(jobs)}" set "${jobs.status.name}" = 'running', "${jobs.attempts.name}" = "${getTableName(jobs)}"."${jobs.attempts.name}" + 1`);
    expect(texts[6]).toContain(`insert into "${getTableName(runEvents)}" ("${runEvents.taskId.name}"`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("a conversation's opening, a stored step and a recorded answer name the schema's tables and columns", async () => {
    const head = { conversation_id: USER, open_asks: [], seq: null, message: null, step_key: null, answer_seq: null, tool_call_id: null, base: 0 };
    const events = [{ taskId: USER, workflowInstanceId: USER, kind: "turn-started" as const, data: {}, at }] as never;
    const texts = [
      ...(await statementsOf((db) => openConversation(db, { agent: "bot", taskId: USER, afterSeq: 2, events, eventsUnlessStep: "k" }), [head])),
      ...(await statementsOf(
        (db) => appendStep(db, { conversationId: USER, agent: "bot", taskId: USER, stepKey: "k", messages: [], asks: [{ id: USER, toolCallId: "call", spec: { fields: [] } as never }], events, at }),
        [head],
      )),
      ...(await statementsOf((db) => recordAnswer(db, { agent: "bot", taskId: USER, askId: USER, toolName: "ask", text: "yes", afterSeq: 0, events, at }), [head])),
    ];
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain(`on conflict ("${conversations.agent.name}", "${conversations.taskId.name}") do nothing`);
    expect(texts[0]).toContain(`from "${getTableName(conversationMessages)}" "m" where "m"."${conversationMessages.conversationId.name}" = (select "conversation"."${conversations.id.name}" from "conversation")`);
    expect(texts[1]).toContain(`as "a"("${asks.id.name}" uuid, "${asks.toolCallId.name}" text, "${asks.spec.name}" jsonb)`);
    expect(texts[0]).toContain(`select (e.value->>'${runEvents.taskId.name}')::uuid, (e.value->>'${runEvents.workflowInstanceId.name}')::uuid, e.value->>'${runEvents.kind.name}'`);
    expect(texts[2]).toContain(`order by "rows"."${conversationMessages.seq.name}" nulls first`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("a slot's deposit, its reads and the expiry sweep name the schema's tables and columns", async () => {
    const selector = { workflow: "w", taskId: USER, event: "Answered", slotId: USER };
    const texts = [
      ...(await statementsOf((db) => depositIntoSlot(db, { ...selector, by: USER, payload: {}, at }))),
      ...(await statementsOf((db) => findSlotForExplanation(db, selector))),
      ...(await statementsOf((db) => listAnswerableSlots(db, USER))),
      ...(await statementsOf((db) => listSlotsForTask(db, USER))),
      ...(await statementsOf((db) => expireDueSlots(db, at, 10))),
    ];
    expect(texts).toHaveLength(5);
    expect(texts[0]).toContain(`select "won"."${slots.id.name}" as id`);
    expect(texts[4]).toContain(`for update skip locked`);
    expect(texts[4]).toContain(`from "due" where "${getTableName(slots)}"."${slots.id.name}" = "due"."${slots.id.name}"`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("the escalation sweep and a slot's steps name the schema's tables and columns", async () => {
    const texts = [...(await statementsOf((db) => fireDueEscalations(db, at, 10))), ...(await statementsOf((db) => listEscalationSteps(db, [USER])))];
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain(`update "${getTableName(slotEscalations)}" "e" set "${slotEscalations.firedAt.name}" = `);
    expect(texts[0]).toContain(`for update of s skip locked`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("a run's event count, its hand-offs and the answers its events show are read with the schema's names", async () => {
    const texts = [
      ...(await statementsOf((db) => countRunEventsBefore(db, USER, 100, 50))),
      ...(await statementsOf((db) => listTurnHandoffs(db, USER))),
      ...(await statementsOf((db) => listAnswersOfQuestions(db, USER, [USER]))),
    ];
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain(`order by "${getTableName(runEvents)}"."${runEvents.taskId.name}" desc, "${getTableName(runEvents)}"."${runEvents.id.name}" desc limit`);
    expect(texts[1]).toContain(`group by "turns"."${runEvents.agent.name}", previous`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("a key's look-up with its use recorded, and a group's rename with its audit line, name the schema's tables and columns", async () => {
    const [touched] = await statementsOf((db) => findLiveApiKeyAndTouch(db, "hash", at));
    expect(touched).toContain(`update "${getTableName(apiKeys)}" set "${apiKeys.lastUsedAt.name}" = `);
    expect(touched).toContain(`insert into "${getTableName(auditEvents)}" ("${auditEvents.at.name}"`);
    const [renamed] = await statementsOf((db) => renameGroupRow(db, USER, "Finance", { by: USER, at }));
    expect(renamed).toContain(`update "${getTableName(groups)}" "g" set "${groups.name.name}" = `);
    for (const text of [touched!, renamed!]) expect(bareColumns(text)).toEqual([]);
  });

  it("answer links, a conversation's window and a failed sign-in's count name the schema's tables and columns", async () => {
    const rule = { allowance: 5, firstBlockMs: 1000, longestBlockMs: 60000, forgetAfterMs: 3600000 };
    const texts = [
      ...(await statementsOf((db) => insertAnswerLink(db, { tokenHash: "h", userId: USER, questionId: USER, expiresAt: at }, at))),
      ...(await statementsOf((db) => takeAnswerLink(db, "h", at))),
      ...(await statementsOf((db) => findAnswerLink(db, "h"))),
      ...(await statementsOf((db) => readConversationWindow(db, { conversationId: USER, questionId: USER, limit: 20 }))),
      ...(await statementsOf((db) => recordSignInFailure(db, [{ key: "ip:1", rule }], at))),
    ];
    expect(texts).toHaveLength(5);
    expect(texts[1]).toContain(`update "${getTableName(signInLinks)}" "l" set "${signInLinks.usedAt.name}" = `);
    expect(texts[4]).toContain(`on conflict ("${signInThrottle.key.name}") do update set "${signInThrottle.failures.name}" = excluded."${signInThrottle.failures.name}"`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("a person's notifications and inbox visit, a seeded group and the kept definitions' reads name the schema's tables and columns", async () => {
    const texts = [
      ...(await statementsOf((db) => insertPersonNotifications(db, [{ userId: USER, kind: "question", questionId: USER }], at))),
      ...(await statementsOf((db) => markInboxSeen(db, USER, at))),
      ...(await statementsOf((db) => seedGroups(db, { Finance: ["ada@parley.test"] }))),
      ...(await statementsOf((db) => findDefinitionDescriptions(db, [{ workflow: "w", fingerprint: "f" }]))),
      dialect.sqlToQuery(runsOnOtherDefinitionsSql([{ workflow: "w", fingerprint: "f", unrecorded: true }])).sql,
    ];
    expect(texts).toHaveLength(5);
    expect(texts[0]).toContain(`as "r"("${personNotifications.userId.name}" uuid`);
    expect(texts[4]).toContain(`group by "o"."${workflowDefinitions.workflow.name}", "o"."${workflowDefinitions.fingerprint.name}", "o"."${workflowInstances.state.name}"`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("a run's cancel (its run, slots, questions, jobs and events) names the schema's columns", async () => {
    const texts = await statementsOf(
      (tx) => cancelRunInTransaction(tx, { workflow: "w", taskId: USER, tracks: tasks, by: USER, at }),
      [{ id: USER, from_status: "waiting", state: "S" }],
    );
    expect(texts).toHaveLength(8);
    expect(texts[2]).toContain(`update "${getTableName(workflowInstances)}" "w" set "${workflowInstances.status.name}" = 'cancelled'`);
    expect(texts[7]).toContain(`as "q"("${asks.id.name}", n)`);
    for (const text of texts) expect(bareColumns(text)).toEqual([]);
  });

  it("entering a state (its run, job, slots with their escalations, questions, events and tracked row) names the schema's columns", async () => {
    const at = new Date("2026-12-01T00:00:00Z");
    const slot = {
      id: USER, workflowInstanceId: USER, workflow: "w", taskId: USER, state: "Waiting", event: "Answered", role: null, assigneeId: USER,
      candidateIds: [USER], candidateGroupIds: [], delegatedFrom: null, openedAt: at, dueAt: at,
      escalations: [{ step: 1, dueAt: at, action: { kind: "remind" as const } }],
    };
    const entry = {
      instanceId: USER, taskId: USER, tracks: tasks, to: "Waiting", fromVersion: 1, definitionFingerprint: "f", queueEnter: true, slots: [slot],
      linkAsksTo: { workflow: "w", event: "Answered" }, onlyIfNothingWaits: true, relaxed: true, at,
      events: [{ taskId: USER, workflowInstanceId: USER, kind: "state-entered" as const, data: {}, at }],
    };
    const row = { moved: 1, waiting: 0, linked: [], cancelled: [], runnable: false };
    const [moved] = await statementsOf((db) => enterState(db, { ...entry, status: "failed", job: { id: 1, workerId: "w" } }), [row]);
    const [created] = await statementsOf((db) => enterState(db, { ...entry, status: "waiting", create: { workflow: "w" } }), [row]);
    expect(moved).toContain(`update "${getTableName(workflowInstances)}" set "${workflowInstances.state.name}" = `);
    expect(moved).toContain(`insert into "${getTableName(slots)}" ("${slots.id.name}"`);
    expect(moved).toContain(`"${getTableName(jobs)}"."${jobs.lockedBy.name}"`);
    expect(created).toContain(`on conflict ("${workflowInstances.workflow.name}", "${workflowInstances.taskId.name}")`);
    for (const text of [moved!, created!]) expect(bareColumns(text)).toEqual([]);
  });
});
