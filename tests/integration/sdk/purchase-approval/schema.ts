import { integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "parley/workflows";

/** A request to buy something: the item the purchase approval tracks (its run's task). */
export const purchaseRequests = pgTable("purchase_requests", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** The purchase approval drives it (running, waiting, completed, failed…), as every tracked table has. */
  status: text("status").notNull().default("running"),
  item: text("item").notNull(),
  /** In cents, so sums are exact. */
  amountCents: integer("amount_cents").notNull(),
  /** Who asked to buy it: the buyer asks them why, when it must. */
  requestedBy: uuid("requested_by")
    .notNull()
    .references(() => users.id),
  /** Why it is needed, in the buyer's summary of the requester's answer. */
  justification: text("justification"),
  decision: text("decision").$type<"approved" | "rejected">(),
  /** Why nobody decided (expired, declined, …), when nobody did. */
  undecided: text("undecided"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type PurchaseRequest = typeof purchaseRequests.$inferSelect;
