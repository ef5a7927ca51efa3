import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { bareName } from "./read-aliases";

/**
 * Pieces of the write statements whose tables and columns come from the schema's objects, beside
 * read-aliases.ts' `bareName` and `columnList`: an update's assignments, and rows handed to a statement
 * as one JSON parameter, each field named and typed as its column is.
 */

/** `<column> = <value>` in an update's `set` list: the value is a parameter, or SQL as it stands. */
export function assign(column: PgColumn, value: SQL | string | number | boolean | null): SQL {
  return sql`${bareName(column)} = ${value}`;
}

/** One row for {@link recordsOf}: each column with its value (dates as they are; JSON turns them into ISO text). */
export type ColumnValues = readonly (readonly [PgColumn, unknown])[];

/**
 * Rows as a set a statement selects from: `jsonb_to_recordset(<rows>) as <alias>(<column> <type>, …)`,
 * each field named and typed as its column (a JSON array becomes the column's array), in the columns'
 * order of the first row. Select them as `<alias>.<column>` with {@link fieldOf}.
 */
export function recordsOf(alias: string, rows: readonly ColumnValues[]): SQL {
  const columns = rows[0]?.map(([column]) => column) ?? [];
  const json = JSON.stringify(rows.map((row) => Object.fromEntries(row.map(([column, value]) => [column.name, value]))));
  const fields = sql.join(
    columns.map((column) => sql`${bareName(column)} ${sql.raw(column.getSQLType())}`),
    sql`, `,
  );
  return sql`jsonb_to_recordset(${json}::jsonb) as ${sql.identifier(alias)}(${fields})`;
}

/** A field of {@link recordsOf}'s rows: `<alias>.<column>`. */
export function fieldOf(alias: string, column: PgColumn): SQL {
  return sql`${sql.identifier(alias)}.${bareName(column)}`;
}
