import { SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { a, bareName, columnList } from "@/db/queries/read-aliases";
import { renderedOnce, schemaSql } from "@/db/queries/statement-parts";
import { asks, jobs, runEvents } from "@/db/schema";

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

/** A statement of statements, as entering a state builds one: fragments of either tag at its places, with values of every kind. */
function movedWith(tag: Tag, at: Date, ids: readonly string[], relaxed: boolean, count: number | bigint = BigInt(3)) {
  const head = renderedOnce(sql`insert into ${runEvents} (${columnList([runEvents.taskId, runEvents.kind, runEvents.at])}) select `);
  const claim = claimWith(tag, "w9", relaxed);
  const flags = sql`${relaxed} and ${3} = ${count} and ${null}::text is null and ${jobs.id} in ${[1, 2]}`;
  return tag`with ${relaxed ? tag`relaxed as (select set_config('synchronous_commit', 'off', true)),` : tag``}
      claimed as (${claim}),
      events as (${head}${ids[0]}::uuid, 'moved', ${at}::timestamptz where ${flags} and ${tag`${jobs.runAt} <= ${at}`})
    select count(*) from claimed where ${asks.id} = any(${`{${ids.join(",")}}`}::uuid[]) ${relaxed ? tag`` : tag`and ${tag`${jobs.status} = ${"queued"}`}`}`;
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

  it("holding other statements and fragments, renders to the very text and parameters drizzle's sql gives", () => {
    const at = new Date("2026-12-06T10:00:00Z");
    const ids = ["0192a9e4-5d3c-7000-8000-000000000001", "0192a9e4-5d3c-7000-8000-000000000002"];
    for (const relaxed of [true, false, true]) {
      expect(dialect.sqlToQuery(movedWith(schemaSql, at, ids, relaxed))).toEqual(dialect.sqlToQuery(movedWith(drizzleSql, at, ids, relaxed)));
    }
  });

  it("reaches drizzle as one flat run of text and values, the statements at its places spliced in", () => {
    const built = movedWith(schemaSql, new Date(), ["0192a9e4-5d3c-7000-8000-000000000001"], true);
    // Left nested: drizzle's own `sql` (the flags, a column and an array in them) — not the claim, the fragments or the conditions.
    const nested = built.queryChunks.filter((chunk) => chunk instanceof SQL);
    expect(nested.map((chunk) => dialect.sqlToQuery(chunk as SQL).sql)).toEqual(['$1 and $2 = $3 and $4::text is null and "jobs"."id" in ($5, $6)']);
  });

  it("with its values written into the text, says what drizzle's sql says", () => {
    const at = new Date("2026-12-06T10:00:00Z");
    const ids = ["0192a9e4-5d3c-7000-8000-000000000001"];
    // (drizzle cannot write a bigint into the text: a number here)
    const inlined = (tag: Tag) => dialect.sqlToQuery(movedWith(tag, at, ids, false, 3).inlineParams());
    expect(inlined(schemaSql)).toEqual(inlined(drizzleSql));
    expect(inlined(schemaSql).params).toEqual([]);
  });
});
