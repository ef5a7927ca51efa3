import { type SQL, sql } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import { asks, questionSnoozes, slots } from "../schema";

/**
 * The question and the slot the read models' statements name as `a` and `s`: interpolated into `sql`,
 * `${a.slotId}` renders `"a"."slot_id"` and `${asks} ${a}` renders `"asks" "a"`, so every table and
 * column a statement names comes from the schema and renaming one is a compile error.
 */
export const a = alias(asks, "a");
export const s = alias(slots, "s");
/** A person's snooze of question `a` (`question_snoozes z`). */
export const z = alias(questionSnoozes, "z");

/**
 * A column's bare name (`"until"`), where SQL takes no table before it: an insert's column list, an
 * `on conflict` target, `excluded.<column>`.
 */
export function bareName(column: PgColumn): SQL {
  return sql`${sql.identifier(column.name)}`;
}

/** An insert's column list, `"a", "b", …`: the columns' bare names. */
export function columnList(columns: readonly PgColumn[]): SQL {
  return sql.join(columns.map(bareName), sql`, `);
}
