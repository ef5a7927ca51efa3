import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import { findApiKey, insertApiKey, listApiKeys, revokeApiKey, findLiveApiKeyAndTouch } from "@/db/queries/api-keys";
import type { ApiKey, ApiKeyKind } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isUuid, newTimeOrderedId } from "@/lib/ids";
import { newWebhookSecret } from "@/lib/notifiers";

export type { ApiKey, ApiKeyKind };

/** How a secret starts: `pk_` an agent key, `pt_` a personal token — so a leaked one can be told apart (and found by scanners). */
const SECRET_PREFIXES: Record<ApiKeyKind, string> = { agent: "pk_", personal: "pt_" };

/** How many characters of a secret screens show to tell keys apart. */
const SHOWN_PREFIX_LENGTH = 10;

/** The longest name a key may have. */
export const API_KEY_NAME_MAX = 80;

/**
 * Control characters, and the bidirectional overrides and isolates: an agent key's name is shown to
 * people as who is asking, so it must not be able to hide or reorder what they read.
 */
const UNPRINTABLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/**
 * A key's name as a form sends it: trimmed, one line of 1–{@link API_KEY_NAME_MAX} printable
 * characters. Used by {@link createApiKey} and by the forms' actions (so refusals sit on the field).
 */
export function apiKeyNameSchema(kind: ApiKeyKind) {
  return z
    .string()
    .trim()
    .min(1, kind === "agent" ? "Give the key a name: people see it as who is asking." : "Give the token a name, e.g. the machine it is for.")
    .max(API_KEY_NAME_MAX, `A name is at most ${API_KEY_NAME_MAX} characters.`)
    .refine((name) => !UNPRINTABLE.test(name), "A name is one line of plain text: no control characters.");
}

/** A key as screens list it: never its secret, nor its hash. */
export interface ApiKeySummary {
  id: string;
  kind: ApiKeyKind;
  name: string;
  /** The secret's first characters, e.g. `pk_7Hq2xY…`. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** The whole secret, for the demo key only (demo mode shows it). */
  demoSecret: string | null;
  /** The demo key's `whsec_` webhook signing secret, shown beside it; null for every other key. */
  demoWebhookSecret: string | null;
}

/** A key just made: the only moment its secret (and its webhook secret) can be read. */
export interface CreatedApiKey {
  key: ApiKeySummary;
  secret: string;
  /** The `whsec_` secret the key's callback webhooks are signed with (agent keys). */
  webhookSecret: string | null;
}

/** The hash a secret is stored and found by. */
export function hashApiSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function summary(key: ApiKey): ApiKeySummary {
  return {
    id: key.id,
    kind: key.kind,
    name: key.name,
    prefix: `${key.secretPrefix}…`,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
    demoSecret: key.demoSecret,
    demoWebhookSecret: key.demoSecret ? key.webhookSecret : null,
  };
}

/**
 * Makes a key. `agent` keys ask people (made by an admin; the name is who people see asking);
 * `personal` tokens answer their owner's inbox. The secret is returned once and stored only as a hash.
 */
export async function createApiKey(
  db: Db,
  input: { kind: ApiKeyKind; name: string; by: string | null; userId?: string | null; demo?: boolean; now?: Date },
): Promise<CreatedApiKey> {
  const parsed = apiKeyNameSchema(input.kind).safeParse(input.name);
  if (!parsed.success) throw new AppError("invalid_input", parsed.error.issues[0]?.message);
  const name = parsed.data;
  if (input.kind === "personal" && !input.userId) throw new AppError("invalid_input", "A personal token belongs to a person.");
  const secret = `${SECRET_PREFIXES[input.kind]}${randomBytes(24).toString("base64url")}`;
  const webhookSecret = input.kind === "agent" ? newWebhookSecret() : null;
  const key = await insertApiKey(db, {
    id: newTimeOrderedId(),
    kind: input.kind,
    name,
    secretHash: hashApiSecret(secret),
    secretPrefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
    webhookSecret,
    userId: input.userId ?? null,
    createdBy: input.by,
    createdAt: input.now ?? new Date(),
    demoSecret: input.demo ? secret : null,
  });
  return { key: summary(key), secret, webhookSecret };
}

/** The live key a caller presented (`Authorization: Bearer <secret>`), or undefined; records its use. */
export async function authenticateApiKey(db: Db, secret: string, now: Date = new Date()): Promise<ApiKey | undefined> {
  const kind = (Object.keys(SECRET_PREFIXES) as ApiKeyKind[]).find((each) => secret.startsWith(SECRET_PREFIXES[each]));
  // Anything that is not shaped like one of our secrets is not looked up at all.
  if (!kind || secret.length > 200 || !/^[A-Za-z0-9_-]+$/.test(secret)) return undefined;
  const key = await findLiveApiKeyAndTouch(db, hashApiSecret(secret), now);
  return key?.kind === kind ? key : undefined;
}

/** The keys of a kind (a person's own tokens, for `personal`), newest first. */
export async function listKeys(db: Db, kind: ApiKeyKind, options: { userId?: string } = {}): Promise<ApiKeySummary[]> {
  return (await listApiKeys(db, kind, options)).map(summary);
}

/** Revokes a key at once (its next request is refused); `not_found` when there is no such live key of this kind (or person). */
export async function revokeKey(db: Db, input: { id: string; kind: ApiKeyKind; userId?: string; by: string | null; now?: Date }): Promise<ApiKeySummary> {
  const revoked = isUuid(input.id)
    ? await revokeApiKey(db, { id: input.id, kind: input.kind, ...(input.userId ? { userId: input.userId } : {}), by: input.by, at: input.now ?? new Date() })
    : undefined;
  if (revoked) return summary(revoked);
  const existing = isUuid(input.id) ? await findApiKey(db, input.id) : undefined;
  if (existing && existing.kind === input.kind && existing.revokedAt && (!input.userId || existing.userId === input.userId)) {
    throw new AppError("conflict", `The key “${existing.name}” was already revoked.`);
  }
  throw new AppError("not_found", "There is no such key.");
}
