import type { Db } from "../../db/client";
import { countOpenSlotsByAge, listOpenSlots, listSlaFilterChoices } from "../../db/queries/sla";
import { listUsers } from "../../db/queries/users";
import { loadInbox } from "../../lib/inbox";
import { readSlaHistory } from "../../lib/sla-history";
import { OPEN_AGE_BUCKETS } from "../../lib/sla-numbers";

/** The pages the benchmark drives. */
export type PageKind = "inbox" | "overdue" | "sla";

/** Marks the statements the SLA page runs at most once a minute, not for every request. */
export const REFRESH_LABEL = "at most once a minute";

/** The targets: server time at p95, in milliseconds. */
export const INBOX_TARGETS: Record<PageKind, number> = { inbox: 50, overdue: 50, sla: 200 };

/**
 * Runs what each page runs against the database — the application's own functions with the page's
 * default parameters (app/(app)/inbox/page.tsx, app/(app)/admin/sla/page.tsx) — under `capture`
 * labels, so the benchmark can EXPLAIN each statement. The SLA page's history is read at most once a
 * minute (lib/sla-history.ts); it is labelled so.
 */
export async function pageStatements(
  capturing: { capture<T>(label: string, run: (db: Db) => Promise<T>): Promise<T> },
  kind: PageKind,
  userId: string,
  now: Date,
): Promise<void> {
  if (kind === "inbox" || kind === "overdue") {
    await capturing.capture("loadInbox", (db) => loadInbox(db, userId, kind === "overdue" ? "overdue" : "assigned", now));
    return;
  }
  await capturing.capture("listOpenSlots", (db) => listOpenSlots(db, {}, now, 51));
  await capturing.capture("listSlaFilterChoices", (db) => listSlaFilterChoices(db));
  await capturing.capture("listUsers", (db) => listUsers(db));
  await capturing.capture("countOpenSlotsByAge", (db) => countOpenSlotsByAge(db, OPEN_AGE_BUCKETS.bounds, now));
  await capturing.capture(`readSlaHistory (${REFRESH_LABEL})`, (db) => readSlaHistory(db, "7d", now));
}
