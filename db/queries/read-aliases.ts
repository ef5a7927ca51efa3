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

/** The names made by {@link bareName} and {@link columnList}: a statement built with `schemaSql` renders them into its text once. */
const SCHEMA_NAMES = new WeakSet<SQL>();
/** One bare name per column name, made once. */
const BARE_NAMES = new Map<string, SQL>();

/** Whether `value` is a name {@link bareName} or {@link columnList} made (text that never changes). */
export function isSchemaName(value: unknown): boolean {
  return value instanceof Object && SCHEMA_NAMES.has(value as SQL);
}

/**
 * A column's bare name (`"until"`), where SQL takes no table before it: an insert's column list, an
 * `on conflict` target, `excluded.<column>`, an update's `set` target.
 */
export function bareName(column: PgColumn): SQL {
  let name = BARE_NAMES.get(column.name);
  if (!name) {
    name = sql`${sql.identifier(column.name)}`;
    SCHEMA_NAMES.add(name);
    BARE_NAMES.set(column.name, name);
  }
  return name;
}

/** One column list per run of column names, made once. */
const COLUMN_LISTS = new Map<string, SQL>();

/** An insert's column list, `"a", "b", …`: the columns' bare names (one object per run of names, made once). */
export function columnList(columns: readonly PgColumn[]): SQL {
  const key = columns.map((column) => column.name).join("\u0000");
  let list = COLUMN_LISTS.get(key);
  if (!list) {
    list = sql.join(columns.map(bareName), sql`, `);
    SCHEMA_NAMES.add(list);
    COLUMN_LISTS.set(key, list);
  }
  return list;
}
