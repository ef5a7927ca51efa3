import { and, desc, eq, isNull, lte, sql } from "drizzle-orm";
import { type Db, queryRows, toDate } from "../client";
import { type ApiKey, type ApiKeyKind, apiKeys } from "../schema";

/** A key as it is stored, minus nothing: callers decide what to show. */
export type { ApiKey };

/** Stores a new key (its secret only as a hash). */
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
  const [row] = await db.insert(apiKeys).values(key).returning();
  return row!;
}

/**
 * The live key whose secret hashes to `secretHash`, in one statement that also records it was used —
 * at most once a minute, so a busy key is not a write per request. Undefined for an unknown or revoked key,
 * and for a personal token whose person is deactivated.
 */
export async function findLiveApiKeyAndTouch(db: Db, secretHash: string, at: Date): Promise<ApiKey | undefined> {
  const rows = await queryRows<RawApiKey>(
    db,
    sql`with found as (
          select * from api_keys k where secret_hash = ${secretHash} and revoked_at is null
            -- A personal token acts as its person: not while they are deactivated.
            and not exists (select 1 from users u where u.id = k.user_id and u.deactivated_at is not null)
        ), touched as (
          update api_keys set last_used_at = ${at.toISOString()}::timestamptz
          where id = (select id from found)
            and (last_used_at is null or last_used_at < ${at.toISOString()}::timestamptz - interval '1 minute')
        )
        select * from found`,
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
export async function revokeApiKey(db: Db, revocation: { id: string; kind: ApiKeyKind; userId?: string; at: Date }): Promise<ApiKey | undefined> {
  const [key] = await db
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
  return key;
}

/**
 * Revokes a person's live personal tokens at `at` — only those made by `madeBy`, when given — in one
 * statement; returns how many.
 */
export async function revokePersonalTokensOf(db: Db, revocation: { userId: string; at: Date; madeBy?: Date }): Promise<number> {
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
    .returning({ id: apiKeys.id });
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
