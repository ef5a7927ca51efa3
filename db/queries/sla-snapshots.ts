import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { slaSnapshots } from "../schema";
import { bareName } from "./read-aliases";

/** A kept reading of SLA numbers: when it was worked out, and what came out. */
export interface SlaSnapshot {
  readAt: Date;
  body: unknown;
}

/** The kept reading called `name`, if there is one. */
export async function loadSlaSnapshot(db: Db, name: string): Promise<SlaSnapshot | undefined> {
  const [row] = await db.select({ readAt: slaSnapshots.readAt, body: slaSnapshots.body }).from(slaSnapshots).where(eq(slaSnapshots.name, name)).limit(1);
  return row;
}

/**
 * Keeps a reading as `name` unless a newer one is kept already (two servers that worked the numbers
 * out at once: the later reading stays). One statement; says whether this reading is now the kept one.
 */
export async function saveSlaSnapshot(db: Db, name: string, snapshot: SlaSnapshot): Promise<boolean> {
  const kept = await db
    .insert(slaSnapshots)
    .values({ name, readAt: snapshot.readAt, body: snapshot.body })
    .onConflictDoUpdate({
      target: slaSnapshots.name,
      set: { readAt: sql`excluded.${bareName(slaSnapshots.readAt)}`, body: sql`excluded.${bareName(slaSnapshots.body)}` },
      setWhere: lt(slaSnapshots.readAt, sql`excluded.${bareName(slaSnapshots.readAt)}`),
    })
    .returning({ name: slaSnapshots.name });
  return kept.length > 0;
}
