import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/**
 * Adds `api_asks.escalation json`, where an ask's escalation chain is kept. TODO(#17): the column
 * is not in the platform's migrations yet (the lead adds it); until then the tests that store a
 * chain add it to their own database, and remove this helper once it is migrated.
 */
export async function addEscalationColumn(db: Db): Promise<void> {
  await db.execute(sql`alter table api_asks add column if not exists escalation json`);
}
