import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { a, bareName, columnList } from "@/db/queries/read-aliases";
import { schemaSql } from "@/db/queries/statement-parts";
import { asks, jobs } from "@/db/schema";

const dialect = new PgDialect();
/** A template tag: drizzle's `sql`, or `schemaSql`. */
type Tag = typeof schemaSql;
const drizzleSql = sql as unknown as Tag;

/** The same statement from one call site of each tag, as the hot paths build it: tables, aliases, names and values. */
function claimWith(tag: Tag, worker: string, queuedOnly: boolean) {
  return tag`update ${jobs} set ${bareName(jobs.lockedBy)} = ${worker}, ${bareName(jobs.attempts)} = ${jobs.attempts} + 1
    where ${jobs.id} in (select ${a.id} from ${asks} ${a} where ${a.status} = ${queuedOnly ? "queued" : "running"}) ${queuedOnly ? tag`and ${jobs.runAt} <= now()` : tag``}
    returning ${columnList([jobs.id, jobs.state])}`;
}

describe("a statement built with schemaSql", () => {
  it("renders to the very text and parameters drizzle's sql gives, call after call", () => {
    for (const [worker, queuedOnly] of [["w1", true], ["w2", false], ["w3", true]] as const) {
      expect(dialect.sqlToQuery(claimWith(schemaSql, worker, queuedOnly))).toEqual(dialect.sqlToQuery(claimWith(drizzleSql, worker, queuedOnly)));
    }
  });

  it("keeps the values at their places as parameters, not in its text", () => {
    const { sql: text, params } = dialect.sqlToQuery(claimWith(schemaSql, "worker-7", true));
    expect(text).not.toContain("worker-7");
    expect(params).toEqual(["worker-7", "queued"]);
  });

  it("reaches the driver in fewer pieces than the columns it names", () => {
    const built = claimWith(schemaSql, "w", false);
    expect(built.queryChunks.length).toBeLessThan(claimWith(drizzleSql, "w", false).queryChunks.length / 2);
  });
});
