import { Column, is, SQL, type SQLChunk, sql, StringChunk, Table } from "drizzle-orm";
import { type PgColumn, PgDialect } from "drizzle-orm/pg-core";
import { bareName, isSchemaName } from "./read-aliases";

/**
 * Pieces of the statements whose tables and columns come from the schema's objects, beside
 * read-aliases.ts' `bareName` and `columnList`: rows handed to a statement as one JSON parameter, each
 * field named and typed as its column is; fragments rendered once; and `schemaSql`, which renders a hot
 * statement's tables and columns into its text once per call site.
 */

/** Rows handed to a statement as one JSON parameter, each field named and typed as its column: see {@link recordShape}. */
export interface RecordShape {
  readonly columns: readonly PgColumn[];
  /** `<alias>(<column> <type>, …)`, rendered once. */
  readonly definition: SQL;
  /** `<alias>.<column>, …` in the columns' order, rendered once. */
  readonly fields: SQL;
}

/** The shape of rows `columns` in that order, read back as `alias`'s fields (made once, where the statement is defined). */
export function recordShape(alias: string, columns: readonly PgColumn[]): RecordShape {
  return {
    columns,
    definition: renderedOnce(sql`${sql.identifier(alias)}(${sql.join(columns.map((column) => sql`${bareName(column)} ${sql.raw(column.getSQLType())}`), sql`, `)})`),
    fields: renderedOnce(sql.join(columns.map((column) => sql`${sql.identifier(alias)}.${bareName(column)}`), sql`, `)),
  };
}

/**
 * Rows as a set a statement selects from: `jsonb_to_recordset(<rows>) as <shape's alias>(<column> <type>, …)`,
 * each row's values in the shape's column order (dates as they are: JSON turns them into ISO text; a
 * JSON array becomes the column's array). Select them with the shape's `fields`.
 */
export function recordsOf(shape: RecordShape, rows: readonly (readonly unknown[])[]): SQL {
  const json = JSON.stringify(rows.map((row) => Object.fromEntries(shape.columns.map((column, index) => [column.name, row[index]]))));
  return sql`jsonb_to_recordset(${json}::jsonb) as ${shape.definition}`;
}

/** A fragment with no parameters, rendered to its text once: for the parts of a hot statement that never change. */
export function renderedOnce(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length > 0) throw new Error("renderedOnce: the fragment has parameters");
  return sql.raw(text);
}

const dialect = new PgDialect();
/** Per `schemaSql` call site: its text with every table and column rendered in, between the places that vary (their value's index). */
const compiledAt = new WeakMap<TemplateStringsArray, readonly (StringChunk | number)[]>();

/** A template's parts: runs of text with the tables and columns at their places rendered in, and the indexes of the other places. */
function compile(strings: TemplateStringsArray, values: readonly unknown[]): (StringChunk | number)[] {
  const parts: (StringChunk | number)[] = [];
  let text = strings[0] ?? "";
  values.forEach((value, index) => {
    if (is(value, Column) || is(value, Table) || isSchemaName(value)) {
      text += dialect.sqlToQuery(sql`${value}`).sql + strings[index + 1];
    } else {
      parts.push(new StringChunk(text), index);
      text = strings[index + 1] ?? "";
    }
  });
  parts.push(new StringChunk(text));
  return parts;
}

/**
 * `sql` for statements on the hot path whose tables and columns are written literally at their
 * places (`${jobs.status}`, `${asks} ${a}`, `${bareName(jobs.status)}`, `${columnList([…])}`): the first
 * call renders each place that holds a table, a column or such a name into the text around it, once, so the statement reaches the driver with as few pieces as
 * when it named them as text (drizzle renders each interpolated column anew, through `is()` checks
 * and alias proxies, on every call: a statement naming a hundred columns cost several times more to
 * build). Never use it where a place may hold different tables or columns from call to call (a tracked
 * table handed in): such a place would keep the first one's name.
 */
export function schemaSql(strings: TemplateStringsArray, ...values: unknown[]): SQL {
  let parts = compiledAt.get(strings);
  if (!parts) {
    parts = compile(strings, values);
    compiledAt.set(strings, parts);
  }
  return new SQL(parts.map((part) => (typeof part === "number" ? (values[part] as SQLChunk) : part)));
}
