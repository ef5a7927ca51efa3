import { and, desc, eq, isNull, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { type ApiKey, type ApiKeyKind, apiKeys, auditEvents, users } from "../schema";
import { insertAuditEvents } from "./audit-events";
import { bareName, columnList } from "./read-aliases";

/** A key's look-up: the key `k` it `found` (a CTE of its row), its person `u`, the key `touched` as used. */
const k = alias(apiKeys, "k");
const found = alias(apiKeys, "found");
const u = alias(users, "u");
const touched = alias(apiKeys, "touched");

/** A key as it is stored, minus nothing: callers decide what to show. */
export type { ApiKey };

/** Stores a new key (its secret only as a hash), and who made it for the audit log. */
export async function insertApiKey(
  db: Db,
  key: {
    id: string;
    kind: ApiKeyKind;
    name: string;
    secretHash: string;
    secretPrefix: string;
    webhookSecret: string | null;
    userId: string | null;
    createdBy: string | null;
    createdAt: Date;
    demoSecret?: string | null;
  },
): Promise<ApiKey> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [row] = await tx.insert(apiKeys).values(key).returning();
    await insertAuditEvents(tx, [
      { at: key.createdAt, action: "key-created", category: "keys", actorId: key.createdBy, apiKeyId: key.id, detail: { name: key.name, kind: key.kind } },
    ]);
    return row!;
  });
}

/**
 * The live key whose secret hashes to `secretHash`, in one statement that also records it was used (on
 * the key and in the audit log) — at most once a minute, so a busy key is not a write per request. Undefined for an unknown or revoked key,
 * and for a personal token whose person is deactivated.
 */
export async function findLiveApiKeyAndTouch(db: Db, secretHash: string, at: Date): Promise<ApiKey | undefined> {
  const rows = await queryRows<RawApiKey>(
    db,
    sql`with ${found} as (
          select * from ${apiKeys} ${k} where ${k.secretHash} = ${secretHash} and ${k.revokedAt} is null
            -- A personal token acts as its person: not while they are deactivated.
            and not exists (select 1 from ${users} ${u} where ${u.id} = ${k.userId} and ${u.deactivatedAt} is not null)
        ), ${touched} as (
          update ${apiKeys} set ${bareName(apiKeys.lastUsedAt)} = ${at.toISOString()}::timestamptz
          where ${apiKeys.id} = (select ${found.id} from ${found})
            and (${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${at.toISOString()}::timestamptz - interval '1 minute')
          returning ${apiKeys.id}, ${apiKeys.kind}, ${apiKeys.userId}, ${apiKeys.name}
        ), audited as (
          -- The audit log's "used" lines are as fine as last_used_at: one a minute at most.
          insert into ${auditEvents} (${columnList([auditEvents.at, auditEvents.action, auditEvents.category, auditEvents.actorId, auditEvents.actorKeyId, auditEvents.apiKeyId, auditEvents.detail])})
          select ${at.toISOString()}::timestamptz, 'key-used', 'keys', ${touched.userId}, case when ${touched.kind} = 'agent' then ${touched.id} end, ${touched.id},
            jsonb_build_object('name', ${touched.name}, 'kind', ${touched.kind})
          from ${touched}
        )
        select * from ${found}`,
  );
  return rows[0] ? toApiKey(rows[0]) : undefined;
}

interface RawApiKey {
  id: string;
  kind: ApiKeyKind;
  name: string;
  secret_hash: string;
  secret_prefix: string;
  webhook_secret: string | null;
  user_id: string | null;
  created_by: string | null;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  demo_secret: string | null;
}

function toApiKey(raw: RawApiKey): ApiKey {
  return {
    id: raw.id,
    kind: raw.kind,
    name: raw.name,
    secretHash: raw.secret_hash,
    secretPrefix: raw.secret_prefix,
    webhookSecret: raw.webhook_secret,
    userId: raw.user_id,
    createdBy: raw.created_by,
    createdAt: toDate(raw.created_at),
    lastUsedAt: toDate(raw.last_used_at),
    revokedAt: toDate(raw.revoked_at),
    demoSecret: raw.demo_secret,
  };
}

/** Keys of a kind, newest first (revoked ones included, for the record). */
export async function listApiKeys(db: Db, kind: ApiKeyKind, options: { userId?: string } = {}): Promise<ApiKey[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.kind, kind), options.userId ? eq(apiKeys.userId, options.userId) : undefined))
    .orderBy(desc(apiKeys.createdAt));
}

/** One key by id, or undefined. */
export async function findApiKey(db: Db, id: string): Promise<ApiKey | undefined> {
  const [key] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return key;
}

/**
 * Revokes a key of this kind (and, for a personal token, of this person) — one conditional update;
 * undefined when there is no such live key.
 */
export async function revokeApiKey(
  db: Db,
  revocation: { id: string; kind: ApiKeyKind; userId?: string; by: string | null; at: Date },
): Promise<ApiKey | undefined> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [key] = await tx
      .update(apiKeys)
      .set({ revokedAt: revocation.at, demoSecret: null })
      .where(
        and(
          eq(apiKeys.id, revocation.id),
          eq(apiKeys.kind, revocation.kind),
          isNull(apiKeys.revokedAt),
          revocation.userId ? eq(apiKeys.userId, revocation.userId) : undefined,
        ),
      )
      .returning();
    if (key) await insertAuditEvents(tx, [revokedEvent(key, revocation.by, revocation.at)]);
    return key;
  });
}

function revokedEvent(key: Pick<ApiKey, "id" | "name" | "kind">, by: string | null, at: Date, because?: string) {
  return {
    at,
    action: "key-revoked",
    category: "keys" as const,
    actorId: by,
    apiKeyId: key.id,
    detail: { name: key.name, kind: key.kind, ...(because ? { because } : {}) },
  };
}

/**
 * Revokes a person's live personal tokens at `at` — only those made by `madeBy`, when given — and
 * records each, with `by` and `because`, for the audit log; in the caller's transaction. Returns how many.
 */
export async function revokePersonalTokensOf(
  db: Db,
  revocation: { userId: string; at: Date; madeBy?: Date; by: string | null; because: string },
): Promise<number> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: revocation.at, demoSecret: null })
    .where(
      and(
        eq(apiKeys.kind, "personal"),
        eq(apiKeys.userId, revocation.userId),
        isNull(apiKeys.revokedAt),
        revocation.madeBy ? lte(apiKeys.createdAt, revocation.madeBy) : undefined,
      ),
    )
    .returning({ id: apiKeys.id, name: apiKeys.name, kind: apiKeys.kind });
  await insertAuditEvents(db, revoked.map((key) => revokedEvent(key, revocation.by, revocation.at, revocation.because)));
  return revoked.length;
}

/** The live demo key, if demo mode made one. */
export async function findDemoApiKey(db: Db): Promise<ApiKey | undefined> {
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(and(sql`${apiKeys.demoSecret} is not null`, isNull(apiKeys.revokedAt)))
    .limit(1);
  return key;
}
