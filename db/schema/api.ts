import { sql } from "drizzle-orm";
import { check, index, integer, json, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * What a key is for: an `agent` key (made by an admin) asks people over the HTTP API and MCP and
 * sees only its own asks; a `personal` token (made by a person for themselves) answers that
 * person's own inbox, e.g. from the terminal.
 */
export const API_KEY_KINDS = ["agent", "personal"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/**
 * Keys for the HTTP API and MCP. Only a hash of the secret is stored: the secret is shown once, when
 * the key is made (the demo key alone keeps it, in `demo_secret`, so the demo can show it).
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<ApiKeyKind>().notNull(),
    /** Shown to people as who asks (`agent`), or to its owner (`personal`). */
    name: text("name").notNull(),
    /** SHA-256 of the whole secret, hex: a key is found by the hash of what the caller sends. */
    secretHash: text("secret_hash").notNull(),
    /** The secret's first characters, to tell keys apart on screens (`pk_7Hq2…`). */
    secretPrefix: text("secret_prefix").notNull(),
    /** The `whsec_` secret this key's callback webhooks are signed with (agent keys). */
    webhookSecret: text("webhook_secret"),
    /** The person a personal token acts as. */
    userId: uuid("user_id").references(() => users.id),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** Updated at most once a minute (a busy key is not a write per request). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The demo key's secret, kept only in demo mode so its page can show it; null for every real key. */
    demoSecret: text("demo_secret"),
  },
  (table) => [
    uniqueIndex("api_keys_secret_hash_key").on(table.secretHash),
    index("api_keys_created_idx").on(table.kind, table.createdAt),
    check("api_keys_kind_known", sql`${table.kind} in ('agent', 'personal')`),
    check("api_keys_personal_has_user", sql`${table.kind} <> 'personal' or ${table.userId} is not null`),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;

/**
 * An ask made over the HTTP API (or MCP): the task of the platform's `ApiAsk` workflow, which puts
 * it to the person as one question record and one slot — the same road as a flow's own question.
 * Its status as the API reports it (open, answered, nothing) is the question's; `status` here is the
 * run's, as for any tracked table.
 */
export const apiAsks = pgTable(
  "api_asks",
  {
    id: uuid("id").primaryKey(),
    apiKeyId: uuid("api_key_id")
      .notNull()
      .references(() => apiKeys.id),
    /** The caller's `Idempotency-Key`: the same key again is the same ask. */
    idempotencyKey: text("idempotency_key"),
    /** SHA-256 of the request as judged, to tell a replay from a different request under the same key. */
    requestHash: text("request_hash").notNull(),
    /** The question record it is put as, named up front so its page's address is known at once. */
    questionId: uuid("question_id").notNull(),
    /** Driven by the ask's run, like any tracked table's. */
    status: text("status").notNull().default("running"),
    /**
     * Its question's status (`asks.status`: open until the question is answered or ends with nothing;
     * open too before the question is put), kept by PostgreSQL: a trigger on `asks` sets it in the
     * statement that changes the question (migration 0018). The key's list filters by it along an index.
     */
    questionStatus: text("question_status").$type<"open" | "answered" | "nothing">().notNull().default("open"),
    title: text("title").notNull(),
    body: text("body"),
    /** Facts shown beside the form: key → string, number or boolean. */
    context: json("context").$type<Record<string, string | number | boolean>>(),
    /** The JSON Schema the answer must meet; null asks for one free-text answer. */
    responseSchema: json("response_schema").$type<Record<string, unknown>>(),
    /** `to` exactly as the caller gave it, echoed back. */
    to: json("to").notNull(),
    /** Who may answer: the people `to` named (one is the assignee; several are candidates). */
    assigneeId: uuid("assignee_id").references(() => users.id),
    candidateIds: uuid("candidate_ids").array().notNull().default(sql`'{}'::uuid[]`),
    dueAt: timestamp("due_at", { withTimezone: true }),
    attempts: integer("attempts").notNull(),
    callbackUrl: text("callback_url"),
    metadata: json("metadata").$type<Record<string, unknown>>(),
    /** Its escalation chain as the caller gave it (judged); null for none. */
    escalation: json("escalation").$type<{ after_percent: number; action: "remind" | "add_group"; group?: string }[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  // What the caller sent is kept as `json`, not `jsonb`: the text as written, keys in the caller's order
  // (a schema's properties are asked in that order, context facts shown in it).
  (table) => [
    uniqueIndex("api_asks_idempotency_key").on(table.apiKeyId, table.idempotencyKey).where(sql`${table.idempotencyKey} is not null`),
    uniqueIndex("api_asks_question_key").on(table.questionId),
    // A key's asks, newest first, a page at a time.
    index("api_asks_key_created_idx").on(table.apiKeyId, table.createdAt, table.id),
    // …and those whose question is open, answered or nothing: each status a walk of its own.
    index("api_asks_key_status_created_idx").on(table.apiKeyId, table.questionStatus, table.createdAt, table.id),
  ],
);

export type ApiAskRow = typeof apiAsks.$inferSelect;
