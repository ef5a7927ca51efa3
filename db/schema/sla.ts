import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The SLA page's numbers as last worked out, one row for each (a period's history, open work by age):
 * working them out reads every wait of the period, so a server keeps them a minute; kept here too,
 * a restarted server — or another server process — shows them at once instead of working them out
 * again for its first visitor. Written only by a newer reading than the one kept.
 */
export const slaSnapshots = pgTable("sla_snapshots", {
  /** Which numbers: `history:<period>` (`history:7d`, `history:all`…), `open-by-age:all`. */
  name: text("name").primaryKey(),
  /** When they were worked out: as of this time. */
  readAt: timestamp("read_at", { withTimezone: true }).notNull(),
  /** The numbers, dates as `{ "$date": "<ISO>" }`. */
  body: jsonb("body").notNull(),
});
