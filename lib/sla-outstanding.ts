import type { Db } from "@/db/client";
import { countOpenSlotsByAge, listOpenSlots, listSlaFilterChoices, type OpenSlotFilters, type OpenSlotRow } from "@/db/queries/sla";
import { OPEN_AGE_BUCKETS } from "@/lib/sla-numbers";

export type { OpenSlotFilters, OpenSlotRow } from "@/db/queries/sla";

/** The SLA page's outstanding work: a page of open waits, the choices its filters offer, open work by age. */
export interface OutstandingWork {
  /** Open waits matching the filters, soonest due first: up to `limit`, after the wait `after`. */
  page: OpenSlotRow[];
  choices: { workflows: string[]; agents: string[] };
  /** Open waits by age, in OPEN_AGE_BUCKETS' bars. */
  ages: number[];
}

/** Reads the open waits the SLA page lists (filtered, a page at a time), its filters' choices and the age chart. */
export async function readOutstandingWork(db: Db, filters: OpenSlotFilters, now: Date, page: { limit: number; after?: string }): Promise<OutstandingWork> {
  const [open, choices, ages] = await Promise.all([
    listOpenSlots(db, filters, now, page.limit, page.after),
    listSlaFilterChoices(db),
    countOpenSlotsByAge(db, OPEN_AGE_BUCKETS.bounds, now),
  ]);
  return { page: open, choices, ages };
}
