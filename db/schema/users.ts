import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** The roles a person can hold; a person may hold several. */
export const ROLES = ["admin", "operator", "assignee"] as const;
export type Role = (typeof ROLES)[number];

/** People who sign in to Parley: assignees answer, operators start reviews, admins watch the clocks. */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Always stored lower-cased and trimmed, so sign-in is case-insensitive. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    /** bcrypt hash; null for people who only sign in through OpenID Connect. */
    passwordHash: text("password_hash"),
    roles: text("roles").array().$type<Role[]>().notNull().default(sql`'{}'::text[]`),
    /** An away person is not put questions by flows: those flows get nothing, reason `away`. */
    away: boolean("away").notNull().default(false),
    /** Who takes this person's new questions while they are away; null: asks to them get nothing (`away`). */
    delegateId: uuid("delegate_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    /** Set while an admin has deactivated the person: they cannot sign in and asks to them get nothing (`unavailable`). */
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    /** Sessions issued before this moment are refused (deactivation ends every open session at once). */
    sessionsValidFrom: timestamp("sessions_valid_from", { withTimezone: true }),
    lastSignedInAt: timestamp("last_signed_in_at", { withTimezone: true }),
    /** When the person last looked at their inbox: questions put since then show as new. */
    inboxSeenAt: timestamp("inbox_seen_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("users_email_key").on(table.email),
    // People listed a page at a time by name (Admin, Admin → People): one page of this index.
    index("users_name_id_idx").on(table.name, table.id),
    check("users_roles_known", sql`${table.roles} <@ ARRAY['admin', 'operator', 'assignee']::text[]`),
    check("users_email_normalised", sql`${table.email} = lower(btrim(${table.email}))`),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** A team people are asked as (e.g. "finance", "on-call"): any member may take a question put to it. */
export const groups = pgTable(
  "groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stored lower-cased and trimmed: `group("finance")`, `to: { group: "finance" }`. */
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("groups_name_key").on(table.name),
    check("groups_name_normalised", sql`${table.name} = lower(btrim(${table.name})) and length(${table.name}) between 1 and 64`),
  ],
);

export const groupMembers = pgTable(
  "group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index("group_members_user_idx").on(table.userId)],
);

/** What was changed about a person, by whom and when: shown on their page. */
export const personChanges = pgTable(
  "person_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personId: uuid("person_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Who made the change; null when Parley did (e.g. a sign-in through an invite). */
    byId: uuid("by_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("person_changes_person_idx").on(table.personId, table.at)],
);

/**
 * One-time links that sign a person in: an `invite` (set a password, then a full session) or an
 * `answer` link from an email (a session that may answer only `question_id`). Only the SHA-256 of
 * the token is kept; a link is used by one conditional update of `used_at`.
 */
export const signInLinks = pgTable(
  "sign_in_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    purpose: text("purpose").$type<"invite" | "answer">().notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionId: uuid("question_id"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    check("sign_in_links_purpose_known", sql`${table.purpose} in ('invite', 'answer')`),
    check("sign_in_links_answer_names_question", sql`(${table.purpose} = 'answer') = (${table.questionId} is not null)`),
    index("sign_in_links_user_idx").on(table.userId),
  ],
);

/** What the bell lists: something a person should know about, until they open it. */
export const personNotifications = pgTable(
  "person_notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `question` (new for you), `reminder`, `escalated` (to your team), `reassigned` (to you). */
    kind: text("kind").$type<"question" | "reminder" | "escalated" | "reassigned">().notNull(),
    taskId: uuid("task_id"),
    questionId: uuid("question_id"),
    slotId: uuid("slot_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    index("person_notifications_user_idx").on(table.userId, table.createdAt),
    index("person_notifications_unread_idx").on(table.userId).where(sql`${table.readAt} is null`),
  ],
);

/**
 * Sessions ended before their token expires (signed out): a token naming one of these is refused on
 * its next request. A row is kept until the token it ends would have expired anyway.
 */
export const endedSessions = pgTable(
  "ended_sessions",
  {
    /** The `sid` claim a session's token carries from sign-in. */
    sessionId: uuid("session_id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endedAt: timestamp("ended_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the token would have expired: after this the row can go. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("ended_sessions_expires_idx").on(table.expiresAt)],
);

/**
 * Failed sign-ins, counted per key (`account:<email>` and `address:<client address>`), in the database
 * so a throttle holds across instances and restarts. A key is refused until `blocked_until`.
 */
export const signInThrottle = pgTable("sign_in_throttle", {
  key: text("key").primaryKey(),
  /** Failures since the count last started again. */
  failures: integer("failures").notNull().default(0),
  lastFailedAt: timestamp("last_failed_at", { withTimezone: true }).notNull(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

export type Group = typeof groups.$inferSelect;
export type PersonChange = typeof personChanges.$inferSelect;
export type SignInLink = typeof signInLinks.$inferSelect;
export type PersonNotification = typeof personNotifications.$inferSelect;
