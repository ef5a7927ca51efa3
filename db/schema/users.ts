import { sql } from "drizzle-orm";
import { boolean, check, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("users_email_key").on(table.email),
    check("users_roles_known", sql`${table.roles} <@ ARRAY['admin', 'operator', 'assignee']::text[]`),
    check("users_email_normalised", sql`${table.email} = lower(btrim(${table.email}))`),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
