import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import type { Db } from "../../db/client";
import * as schema from "../../db/schema";
import { figure, summarise } from "./stats";

/** A statement as the application sent it: its text and parameters. */
export interface CapturedStatement {
  label: string;
  query: string;
  params: unknown[];
}

/**
 * A database handle that runs queries as the application does and remembers each statement, so the
 * benchmark can EXPLAIN exactly what a page runs (the real query functions, the real parameters).
 */
export function capturingDb(client: postgres.Sql): { db: Db; capture<T>(label: string, run: (db: Db) => Promise<T>): Promise<T>; statements: CapturedStatement[] } {
  const statements: CapturedStatement[] = [];
  let label = "";
  // Both roads to the server go through the client's `unsafe`: drizzle's query builder, and
  // queryRows' prepared raw SQL (which bypasses drizzle's logger).
  const recording = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== "unsafe") return Reflect.get(target, property, receiver);
      return (query: string, params?: unknown[], options?: unknown) => {
        statements.push({ label, query, params: params ?? [] });
        return (target.unsafe as (...args: unknown[]) => unknown)(query, params, options);
      };
    },
  });
  const db = drizzle({ client: recording, schema }) as unknown as Db;
  return {
    db,
    statements,
    async capture(name, run) {
      label = name;
      try {
        return await run(db);
      } finally {
        label = "";
      }
    },
  };
}

interface PlanNode {
  "Node Type": string;
  Strategy?: string;
  "Join Type"?: string;
  "Relation Name"?: string;
  Alias?: string;
  "Index Name"?: string;
  "Parent Relationship"?: string;
  "Subplan Name"?: string;
  "Sort Method"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Actual Total Time": number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Heap Fetches"?: number;
  Plans?: PlanNode[];
}

interface ExplainOutput {
  Plan: PlanNode;
  "Planning Time": number;
  "Execution Time": number;
}

/** One statement's plan, summarised: its shape, the rows each step produced, the time. */
export interface ExplainedStatement {
  label: string;
  /** The start of the statement, on one line. */
  sql: string;
  /** Median execution time over the runs, ms (EXPLAIN ANALYZE's own, with its timing overhead). */
  executionMs: number;
  /** How many times it was run (fewer than asked for a slow one). */
  runs: number;
  planningMs: number;
  rows: number;
  sharedHit: number;
  sharedRead: number;
  /** The plan tree, one node a line. */
  shape: string;
}

function describeNode(node: PlanNode): string {
  const kind = [node.Strategy && node.Strategy !== "Plain" ? node.Strategy : undefined, node["Join Type"] && node["Join Type"] !== "Inner" ? node["Join Type"] : undefined, node["Node Type"]]
    .filter(Boolean)
    .join(" ");
  const on = node["Index Name"] ? ` using ${node["Index Name"]}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}` : node["Relation Name"] ? ` on ${node["Relation Name"]}` : "";
  const loops = node["Actual Loops"] > 1 ? ` × ${node["Actual Loops"]} loops` : "";
  const fetches = node["Heap Fetches"] !== undefined ? `, heap fetches ${node["Heap Fetches"]}` : "";
  const sort = node["Sort Method"] ? `, ${node["Sort Method"]}` : "";
  const sub = node["Subplan Name"] ? `${node["Subplan Name"]}: ` : "";
  return `${sub}${kind}${on} — rows ${node["Actual Rows"]}${loops}, ${figure(node["Actual Total Time"])} ms${fetches}${sort}`;
}

function shapeOf(node: PlanNode, depth = 0): string[] {
  return [`${"  ".repeat(depth)}${describeNode(node)}`, ...(node.Plans ?? []).flatMap((child) => shapeOf(child, depth + 1))];
}

function abbreviate(query: string, length = 140): string {
  const line = query.replace(/\s+/g, " ").trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a statement, `runs` times: the median time and the last run's plan. A
 * statement that takes over a second is run once (a slow one costs the benchmark minutes otherwise).
 */
export async function explainStatement(client: postgres.Sql, statement: CapturedStatement, runs = 5): Promise<ExplainedStatement> {
  const times: number[] = [];
  let last: ExplainOutput | undefined;
  for (let run = 0; run < runs && !(times.length > 0 && times[0]! > 1000); run++) {
    const [row] = await client.unsafe<{ "QUERY PLAN": ExplainOutput[] }[]>(
      `explain (analyze, buffers, format json) ${statement.query}`,
      statement.params as postgres.ParameterOrJSON<never>[],
    );
    last = row!["QUERY PLAN"][0]!;
    times.push(last["Execution Time"]);
  }
  return {
    label: statement.label,
    sql: abbreviate(statement.query),
    runs: times.length,
    executionMs: summarise(times).median,
    planningMs: last!["Planning Time"],
    rows: last!.Plan["Actual Rows"],
    sharedHit: last!.Plan["Shared Hit Blocks"] ?? 0,
    sharedRead: last!.Plan["Shared Read Blocks"] ?? 0,
    shape: shapeOf(last!.Plan).join("\n"),
  };
}
