import { sql } from "drizzle-orm";
import { type Db, queryRows, toDate } from "../client";
import type { NothingReason, QuestionStatus } from "../schema";

/** A new ask as it is stored. */
export interface NewApiAsk {
  id: string;
  apiKeyId: string;
  idempotencyKey: string | null;
  requestHash: string;
  questionId: string;
  title: string;
  body: string | null;
  context: Record<string, string | number | boolean> | null;
  responseSchema: Record<string, unknown> | null;
  to: unknown;
  assigneeId: string | null;
  candidateIds: readonly string[];
  dueAt: Date | null;
  attempts: number;
  callbackUrl: string | null;
  metadata: Record<string, unknown> | null;
  /** Its escalation chain, as the caller gave it (judged); null for none. */
  escalation?: readonly ApiEscalationStep[] | null;
  createdAt: Date;
}

/** A step of an ask's escalation chain, as the API takes it and as it is stored. */
export interface ApiEscalationStep {
  after_percent: number;
  action: "remind" | "add_group";
  group?: string;
}

/** An ask's escalation chain as stored with it (`api_asks.escalation`), or null when it has none. */
export async function findApiAskEscalation(db: Db, id: string): Promise<ApiEscalationStep[] | null> {
  const rows = await queryRows<{ escalation: ApiEscalationStep[] | string | null }>(db, sql`select escalation from api_asks where id = ${id}`);
  const stored = rows[0]?.escalation ?? null;
  return typeof stored === "string" ? (JSON.parse(stored) as ApiEscalationStep[]) : stored;
}

/**
 * Stores an ask unless this key already made one under the same idempotency key (then nothing is
 * written; a concurrent twin waits for the first to commit). Returns whether it was created.
 */
export async function insertApiAsk(db: Db, ask: NewApiAsk): Promise<boolean> {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with created as (
        insert into api_asks (id, api_key_id, idempotency_key, request_hash, question_id, title, body, context, response_schema, "to",
          assignee_id, candidate_ids, due_at, attempts, callback_url, metadata, created_at, escalation)
        values (${ask.id}, ${ask.apiKeyId}, ${ask.idempotencyKey}, ${ask.requestHash}, ${ask.questionId}, ${ask.title}, ${ask.body},
          ${json(ask.context)}::json, ${json(ask.responseSchema)}::json, ${JSON.stringify(ask.to)}::json, ${ask.assigneeId}::uuid,
          ${`{${ask.candidateIds.join(",")}}`}::uuid[], ${ask.dueAt?.toISOString() ?? null}::timestamptz, ${ask.attempts},
          ${ask.callbackUrl}, ${json(ask.metadata)}::json, ${ask.createdAt.toISOString()}::timestamptz,
          ${ask.escalation?.length ? JSON.stringify(ask.escalation) : null}::json)
        on conflict (api_key_id, idempotency_key) where idempotency_key is not null do nothing
        returning id, api_key_id, question_id, title, created_at
      ), audited as (
        -- Who asked, for the audit log: the key, in the statement that stores the ask.
        insert into audit_events (at, action, category, actor_key_id, task_id, question_id, detail)
        select created_at, 'asked', 'runs', api_key_id, id, question_id, jsonb_build_object('title', title) from created
      )
      select id from created`,
  );
  return rows.length > 0;
}

/** An ask with its question, its slot and who answered, as the API reports it. */
export interface ApiAskRecord {
  id: string;
  apiKeyId: string;
  apiKeyName: string;
  idempotencyKey: string | null;
  requestHash: string;
  questionId: string;
  title: string;
  body: string | null;
  context: Record<string, string | number | boolean> | null;
  freeText: boolean;
  to: unknown;
  dueAt: Date | null;
  attempts: number;
  callbackUrl: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
  /** The question's, once it is asked (null for the moment between the ask's commit and its run's first step). */
  questionStatus: QuestionStatus | null;
  reason: NothingReason | null;
  answer: unknown;
  answeredAt: Date | null;
  answeredBy: { email: string; name: string } | null;
  /** Who declined it (reason `declined`), and the note they left for the asker. */
  declinedBy: { email: string; name: string } | null;
  declineNote: string | null;
  attemptsUsed: number;
}

interface RawRecord {
  id: string;
  api_key_id: string;
  api_key_name: string;
  idempotency_key: string | null;
  request_hash: string;
  question_id: string;
  title: string;
  body: string | null;
  context: Record<string, string | number | boolean> | null;
  free_text: boolean;
  to: unknown;
  due_at: Date | string | null;
  attempts: number;
  callback_url: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date | string;
  question_status: QuestionStatus | null;
  reason: NothingReason | null;
  answer: unknown;
  answered_at: Date | string | null;
  answered_by_email: string | null;
  answered_by_name: string | null;
  declined_by_email: string | null;
  declined_by_name: string | null;
  decline_note: string | null;
  attempts_used: number | null;
}

function toRecord(raw: RawRecord): ApiAskRecord {
  return {
    id: raw.id,
    apiKeyId: raw.api_key_id,
    apiKeyName: raw.api_key_name,
    idempotencyKey: raw.idempotency_key,
    requestHash: raw.request_hash,
    questionId: raw.question_id,
    title: raw.title,
    body: raw.body,
    context: raw.context,
    freeText: Boolean(raw.free_text),
    to: raw.to,
    dueAt: toDate(raw.due_at),
    attempts: Number(raw.attempts),
    callbackUrl: raw.callback_url,
    metadata: raw.metadata,
    createdAt: toDate(raw.created_at),
    questionStatus: raw.question_status,
    reason: raw.reason,
    answer: raw.answer,
    answeredAt: toDate(raw.answered_at),
    answeredBy: raw.answered_by_email ? { email: raw.answered_by_email, name: raw.answered_by_name ?? raw.answered_by_email } : null,
    declinedBy: raw.declined_by_email ? { email: raw.declined_by_email, name: raw.declined_by_name ?? raw.declined_by_email } : null,
    declineNote: raw.decline_note,
    attemptsUsed: Number(raw.attempts_used ?? 0),
  };
}

const RECORD_SELECT = sql`select a.id, a.api_key_id, k.name as api_key_name, a.idempotency_key, a.request_hash, a.question_id, a.title, a.body,
    a.context, a.response_schema is null as free_text, a."to", a.due_at, a.attempts, a.callback_url, a.metadata, a.created_at,
    q.status as question_status, q.reason, q.answer, q.answered_at, q.attempts_used, u.email as answered_by_email, u.name as answered_by_name,
    d.email as declined_by_email, d.name as declined_by_name, q.decline_note
  from api_asks a
  join api_keys k on k.id = a.api_key_id
  left join asks q on q.id = a.question_id
  left join users u on u.id = q.answered_by
  left join users d on d.id = q.declined_by`;

/** One ask of this key (another key's is not found). */
export async function findApiAsk(db: Db, apiKeyId: string, id: string): Promise<ApiAskRecord | undefined> {
  const rows = await queryRows<RawRecord>(db, sql`${RECORD_SELECT} where a.id = ${id} and a.api_key_id = ${apiKeyId}`);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** An ask by id, whichever key made it (for the platform's own screens and webhooks). */
export async function findApiAskById(db: Db, id: string): Promise<ApiAskRecord | undefined> {
  const rows = await queryRows<RawRecord>(db, sql`${RECORD_SELECT} where a.id = ${id}`);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** The ask this key made under an idempotency key. */
export async function findApiAskByIdempotencyKey(db: Db, apiKeyId: string, idempotencyKey: string): Promise<ApiAskRecord | undefined> {
  const rows = await queryRows<RawRecord>(db, sql`${RECORD_SELECT} where a.api_key_id = ${apiKeyId} and a.idempotency_key = ${idempotencyKey}`);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** Asks by their ids (tasks of the ApiAsk workflow), for screens describing them. */
export async function findApiAsksByIds(db: Db, ids: readonly string[]): Promise<ApiAskRecord[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<RawRecord>(db, sql`${RECORD_SELECT} where a.id = any(${`{${[...new Set(ids)].join(",")}}`}::uuid[])`);
  return rows.map(toRecord);
}

/** The status filter of a key's list: the API's words. */
export type ApiAskStatusFilter = "open" | "answered" | "nothing";

/**
 * A page of this key's asks, newest first, after the ask `after` (a cursor: its created-at and id),
 * optionally only those whose question is in one status. Reads `limit + 1` to tell whether more follow.
 * Each status is its own walk of an index: the key's asks by `question_status` (the question's
 * status, kept on the ask by PostgreSQL: migration 0018), newest first — so a page of the rare status
 * costs what a page of any other does.
 */
export async function listApiAsks(
  db: Db,
  apiKeyId: string,
  page: { limit: number; after?: { createdAt: Date; id: string }; status?: ApiAskStatusFilter },
): Promise<ApiAskRecord[]> {
  const after = page.after ? sql`and (a.created_at, a.id) < (${page.after.createdAt.toISOString()}::timestamptz, ${page.after.id}::uuid)` : sql``;
  const status = page.status ? sql`and a.question_status = ${page.status}` : sql``;
  const rows = await queryRows<RawRecord>(
    db,
    sql`${RECORD_SELECT} where a.api_key_id = ${apiKeyId} ${status} ${after} order by a.created_at desc, a.id desc limit ${page.limit + 1}`,
  );
  return rows.map(toRecord);
}

/** Where an ask's callback goes and what signs it: read when it is delivered, so no secret waits in the outbox. */
export interface AskCallbackEndpoint {
  askId: string;
  /** The caller's `callback_url`, or null when it gave none. */
  callbackUrl: string | null;
  /** The `whsec_` secret of the key that made the ask (agent keys have one). */
  webhookSecret: string | null;
}

/** The callback endpoint of the ask put as `questionId`, or undefined when no ask was. */
export async function findAskCallbackEndpoint(db: Db, questionId: string): Promise<AskCallbackEndpoint | undefined> {
  const rows = await queryRows<{ id: string; callback_url: string | null; webhook_secret: string | null }>(
    db,
    sql`select a.id, a.callback_url, k.webhook_secret from api_asks a join api_keys k on k.id = a.api_key_id where a.question_id = ${questionId}`,
  );
  const row = rows[0];
  return row ? { askId: row.id, callbackUrl: row.callback_url, webhookSecret: row.webhook_secret } : undefined;
}
