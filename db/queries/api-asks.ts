import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { apiAsks, apiKeys, asks, auditEvents, type NothingReason, type QuestionStatus, users } from "../schema";
import { bareName, columnList } from "./read-aliases";

/** The statements' names: the ask `a`, its key `k`, its question `q`, who answered it `u` and who declined it `d`. */
const a = alias(apiAsks, "a");
const k = alias(apiKeys, "k");
const q = alias(asks, "q");
const u = alias(users, "u");
const d = alias(users, "d");
/** The ask just stored (insertApiAsk's CTE, rows of api_asks). */
const created = alias(apiAsks, "created");

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
  const rows = await queryRows<{ escalation: ApiEscalationStep[] | string | null }>(db, sql`select ${apiAsks.escalation} as escalation from ${apiAsks} where ${apiAsks.id} = ${id}`);
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
    sql`with ${created} as (
        insert into ${apiAsks} (${columnList([apiAsks.id, apiAsks.apiKeyId, apiAsks.idempotencyKey, apiAsks.requestHash, apiAsks.questionId, apiAsks.title, apiAsks.body, apiAsks.context, apiAsks.responseSchema, apiAsks.to, apiAsks.assigneeId, apiAsks.candidateIds, apiAsks.dueAt, apiAsks.attempts, apiAsks.callbackUrl, apiAsks.metadata, apiAsks.createdAt, apiAsks.escalation])})
        values (${ask.id}, ${ask.apiKeyId}, ${ask.idempotencyKey}, ${ask.requestHash}, ${ask.questionId}, ${ask.title}, ${ask.body},
          ${json(ask.context)}::json, ${json(ask.responseSchema)}::json, ${JSON.stringify(ask.to)}::json, ${ask.assigneeId}::uuid,
          ${`{${ask.candidateIds.join(",")}}`}::uuid[], ${ask.dueAt?.toISOString() ?? null}::timestamptz, ${ask.attempts},
          ${ask.callbackUrl}, ${json(ask.metadata)}::json, ${ask.createdAt.toISOString()}::timestamptz,
          ${ask.escalation?.length ? JSON.stringify(ask.escalation) : null}::json)
        on conflict (${bareName(apiAsks.apiKeyId)}, ${bareName(apiAsks.idempotencyKey)}) where ${bareName(apiAsks.idempotencyKey)} is not null do nothing
        returning ${apiAsks.id}, ${apiAsks.apiKeyId}, ${apiAsks.questionId}, ${apiAsks.title}, ${apiAsks.createdAt}
      ), audited as (
        -- Who asked, for the audit log: the key, in the statement that stores the ask.
        insert into ${auditEvents} (${columnList([auditEvents.at, auditEvents.action, auditEvents.category, auditEvents.actorKeyId, auditEvents.taskId, auditEvents.questionId, auditEvents.detail])})
        select ${created.createdAt}, 'asked', 'runs', ${created.apiKeyId}, ${created.id}, ${created.questionId}, jsonb_build_object('title', ${created.title}) from ${created}
      )
      select ${created.id} as id from ${created}`,
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

const RECORD_SELECT = sql`select ${a.id} as id, ${a.apiKeyId} as api_key_id, ${k.name} as api_key_name, ${a.idempotencyKey} as idempotency_key,
    ${a.requestHash} as request_hash, ${a.questionId} as question_id, ${a.title} as title, ${a.body} as body,
    ${a.context} as context, ${a.responseSchema} is null as free_text, ${a.to} as "to", ${a.dueAt} as due_at, ${a.attempts} as attempts,
    ${a.callbackUrl} as callback_url, ${a.metadata} as metadata, ${a.createdAt} as created_at,
    ${q.status} as question_status, ${q.reason} as reason, ${q.answer} as answer, ${q.answeredAt} as answered_at, ${q.attemptsUsed} as attempts_used,
    ${u.email} as answered_by_email, ${u.name} as answered_by_name,
    ${d.email} as declined_by_email, ${d.name} as declined_by_name, ${q.declineNote} as decline_note
  from ${apiAsks} ${a}
  join ${apiKeys} ${k} on ${k.id} = ${a.apiKeyId}
  left join ${asks} ${q} on ${q.id} = ${a.questionId}
  left join ${users} ${u} on ${u.id} = ${q.answeredBy}
  left join ${users} ${d} on ${d.id} = ${q.declinedBy}`;

/** One ask of this key (another key's is not found). */
export async function findApiAsk(db: Db, apiKeyId: string, id: string): Promise<ApiAskRecord | undefined> {
  const rows = await queryRows<RawRecord>(db, sql`${RECORD_SELECT} where ${a.id} = ${id} and ${a.apiKeyId} = ${apiKeyId}`);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** An ask by id, whichever key made it (for the platform's own screens and webhooks). */
export async function findApiAskById(db: Db, id: string): Promise<ApiAskRecord | undefined> {
  const rows = await queryRows<RawRecord>(db, sql`${RECORD_SELECT} where ${a.id} = ${id}`);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** The ask this key made under an idempotency key. */
export async function findApiAskByIdempotencyKey(db: Db, apiKeyId: string, idempotencyKey: string): Promise<ApiAskRecord | undefined> {
  const rows = await queryRows<RawRecord>(db, sql`${RECORD_SELECT} where ${a.apiKeyId} = ${apiKeyId} and ${a.idempotencyKey} = ${idempotencyKey}`);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** Asks by their ids (tasks of the ApiAsk workflow), for screens describing them. */
export async function findApiAsksByIds(db: Db, ids: readonly string[]): Promise<ApiAskRecord[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<RawRecord>(db, sql`${RECORD_SELECT} where ${a.id} = any(${`{${[...new Set(ids)].join(",")}}`}::uuid[])`);
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
  const after = page.after ? sql`and (${a.createdAt}, ${a.id}) < (${page.after.createdAt.toISOString()}::timestamptz, ${page.after.id}::uuid)` : sql``;
  const status = page.status ? sql`and ${a.questionStatus} = ${page.status}` : sql``;
  const rows = await queryRows<RawRecord>(
    db,
    sql`${RECORD_SELECT} where ${a.apiKeyId} = ${apiKeyId} ${status} ${after} order by ${a.createdAt} desc, ${a.id} desc limit ${page.limit + 1}`,
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
    sql`select ${a.id} as id, ${a.callbackUrl} as callback_url, ${k.webhookSecret} as webhook_secret
      from ${apiAsks} ${a} join ${apiKeys} ${k} on ${k.id} = ${a.apiKeyId} where ${a.questionId} = ${questionId}`,
  );
  const row = rows[0];
  return row ? { askId: row.id, callbackUrl: row.callback_url, webhookSecret: row.webhook_secret } : undefined;
}
