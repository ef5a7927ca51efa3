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
  return schemaSql`jsonb_to_recordset(${json}::jsonb) as ${shape.definition}`;
}

/**
 * What `schemaSql` and `renderedOnce` make: an SQL like any other, whose chunks are flat runs of text
 * between values; a `schemaSql` statement splices one at its places instead of nesting it, so drizzle
 * walks one list instead of a tree of them.
 */
class FlatStatement extends SQL {
  constructor(chunks: SQLChunk[]) {
    // Not handed to SQL's constructor, which looks for tables among the chunks to fill `usedTables`
    // for drizzle's query cache (unused here): a statement's tables are in its text by now.
    super([]);
    (this as { queryChunks: SQLChunk[] }).queryChunks = chunks;
  }
}

/** Whether `.inlineParams()` was called on the statement (the flag is private to SQL): drizzle writes its values into the text. */
function inlinesParams(statement: SQL): boolean {
  return (statement as unknown as { shouldInlineParams: boolean }).shouldInlineParams;
}

/**
 * A fragment with no parameters, rendered to its text once: for the parts of a hot statement that
 * never change (spliced into the text around it where a `schemaSql` statement holds it).
 */
export function renderedOnce(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length > 0) throw new Error("renderedOnce: the fragment has parameters");
  return new FlatStatement([new StringChunk(text)]);
}

const dialect = new PgDialect();
/** Per `schemaSql` call site: its text with every table and column rendered in, between the places that vary (their value's index). */
const compiledAt = new WeakMap<TemplateStringsArray, readonly (string | number)[]>();

/** A template's parts: runs of text with the tables and columns at their places rendered in, and the indexes of the other places. */
function compile(strings: TemplateStringsArray, values: readonly unknown[]): (string | number)[] {
  const parts: (string | number)[] = [];
  let text = strings[0] ?? "";
  values.forEach((value, index) => {
    if (is(value, Column) || is(value, Table) || isSchemaName(value)) {
      text += dialect.sqlToQuery(sql`${value}`).sql + strings[index + 1];
    } else {
      parts.push(text, index);
      text = strings[index + 1] ?? "";
    }
  });
  parts.push(text);
  return parts;
}

/**
 * `sql` for statements on the hot path whose tables and columns are written literally at their
 * places (`${jobs.status}`, `${asks} ${a}`, `${bareName(jobs.status)}`, `${columnList([…])}`): the first
 * call renders each place that holds a table, a column or such a name into the text around it, once,
 * and a `schemaSql` statement at a place is spliced into the text around it, so the whole statement
 * reaches drizzle as one flat run of text and values. Drizzle renders each interpolated column anew,
 * through `is()` checks and alias proxies, on every call, and each nested statement with its own walk:
 * a statement naming a hundred columns over a dozen fragments cost several times more to build.
 * Never use it where a place may hold different tables or columns from call to call (a tracked table
 * handed in): such a place would keep the first one's name.
 */
export function schemaSql(strings: TemplateStringsArray, ...values: unknown[]): SQL {
  let parts = compiledAt.get(strings);
  if (!parts) {
    parts = compile(strings, values);
    compiledAt.set(strings, parts);
  }
  const chunks: SQLChunk[] = [];
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") {
      text += part;
      continue;
    }
    const value = values[part];
    if (value instanceof FlatStatement && !inlinesParams(value)) {
      // Spliced in: its text joins ours, its values take their places between.
      for (const chunk of value.queryChunks) {
        if (chunk instanceof StringChunk) {
          text += chunk.value.length === 1 ? chunk.value[0] : chunk.value.join("");
        } else {
          chunks.push(new StringChunk(text), chunk);
          text = "";
        }
      }
    } else {
      chunks.push(new StringChunk(text), value as SQLChunk);
      text = "";
    }
  }
  chunks.push(new StringChunk(text));
  return new FlatStatement(chunks);
}
