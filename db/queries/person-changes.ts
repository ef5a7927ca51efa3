import { desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../client";
import { type PersonChange, personChanges, users } from "../schema";

export type { PersonChange };

/** A change as the person's page shows it: with the name of whoever made it (null: Parley itself, or someone since removed). */
export interface PersonChangeRow extends PersonChange {
  byName: string | null;
}

/** Records changes to people, in the caller's transaction. */
export async function insertPersonChanges(
  db: Db,
  changes: readonly { id?: string; personId: string; byId: string | null; kind: string; data?: Record<string, unknown>; at?: Date }[],
): Promise<void> {
  if (changes.length === 0) return;
  await db.insert(personChanges).values(changes.map((change) => ({ ...change, data: change.data ?? {} })));
}

/** What was changed about a person, newest first, at most `limit`. */
export async function listPersonChanges(db: Db, personId: string, limit = 200): Promise<PersonChangeRow[]> {
  const by = alias(users, "by_user");
  const rows = await db
    .select({ change: personChanges, byName: by.name })
    .from(personChanges)
    .leftJoin(by, eq(by.id, personChanges.byId))
    .where(eq(personChanges.personId, personId))
    .orderBy(desc(personChanges.at), desc(personChanges.id))
    .limit(limit);
  return rows.map((row) => ({ ...row.change, byName: row.byName }));
}
