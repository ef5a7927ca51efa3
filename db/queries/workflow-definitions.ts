import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { slots, workflowDefinitions, workflowInstances } from "../schema";
import { bareName, s } from "./read-aliases";
import type { WorkflowDescription } from "../types/workflow-description";

/** A kept definition and a run, as these statements name them. */
const d = alias(workflowDefinitions, "d");
const w = alias(workflowInstances, "w");
/**
 * Rows of definitions given as values: the `k`eys asked for, the `c`urrent definitions; and `o`, the
 * other-definition runs counted (a definition's workflow and fingerprint, a run's state).
 */
const k = alias(workflowDefinitions, "k");
const c = alias(workflowDefinitions, "c");
const o = alias(workflowDefinitions, "o");
const oRun = alias(workflowInstances, "o");

/** A kept definition's workflow, fingerprint and when it was first seen, in the columns of {@link KeptDefinition}'s row. */
const KEPT_COLUMNS = sql`${workflowDefinitions.workflow} as workflow, ${workflowDefinitions.fingerprint} as fingerprint, ${workflowDefinitions.firstSeenAt} as first_seen_at`;

/** A workflow definition as a deployment keeps it. */
export interface KeptDefinition {
  workflow: string;
  fingerprint: string;
  firstSeenAt: Date;
}

/**
 * Keeps each definition under its workflow and fingerprint, once: a definition kept already is left
 * as it is (with when it was first seen), so several instances starting at once write nothing twice.
 */
export async function keepWorkflowDefinitions(
  db: Db,
  definitions: readonly { workflow: string; fingerprint: string; description: WorkflowDescription }[],
  at: Date,
): Promise<void> {
  if (definitions.length === 0) return;
  const rows = definitions.map(
    (definition) => sql`(${definition.workflow}, ${definition.fingerprint}, ${JSON.stringify(definition.description)}::jsonb, ${at.toISOString()}::timestamptz)`,
  );
  const { workflow, fingerprint, description, firstSeenAt } = workflowDefinitions;
  await db.execute(sql`insert into ${workflowDefinitions} (${bareName(workflow)}, ${bareName(fingerprint)}, ${bareName(description)}, ${bareName(firstSeenAt)})
    values ${sql.join(rows, sql`, `)}
    on conflict (${bareName(workflow)}, ${bareName(fingerprint)}) do nothing`);
}

/** The definitions kept of these workflows, first seen first (without their descriptions). */
export async function listKeptDefinitions(db: Db, workflows: readonly string[]): Promise<KeptDefinition[]> {
  if (workflows.length === 0) return [];
  const rows = await queryRows<{ workflow: string; fingerprint: string; first_seen_at: string | Date }>(
    db,
    sql`select ${KEPT_COLUMNS} from ${workflowDefinitions}
        where ${workflowDefinitions.workflow} in (${sql.join(
          workflows.map((workflow) => sql`${workflow}`),
          sql`, `,
        )})
        order by ${workflowDefinitions.firstSeenAt}, ${workflowDefinitions.fingerprint}`,
  );
  return rows.map((row) => ({ workflow: row.workflow, fingerprint: row.fingerprint, firstSeenAt: toDate(row.first_seen_at) }));
}

/** The first definition kept of a workflow: what a run last moved before fingerprints were kept is read as. */
export async function findFirstKeptDefinition(db: Db, workflow: string): Promise<KeptDefinition | undefined> {
  const [row] = await queryRows<{ workflow: string; fingerprint: string; first_seen_at: string | Date }>(
    db,
    sql`select ${KEPT_COLUMNS} from ${workflowDefinitions} where ${workflowDefinitions.workflow} = ${workflow}
        order by ${workflowDefinitions.firstSeenAt}, ${workflowDefinitions.fingerprint} limit 1`,
  );
  return row ? { workflow: row.workflow, fingerprint: row.fingerprint, firstSeenAt: toDate(row.first_seen_at) } : undefined;
}

/** The descriptions of these definitions, by `workflow` and `fingerprint` (a definition not kept is left out). */
export async function findDefinitionDescriptions(
  db: Db,
  keys: readonly { workflow: string; fingerprint: string }[],
): Promise<{ workflow: string; fingerprint: string; description: WorkflowDescription }[]> {
  if (keys.length === 0) return [];
  return queryRows<{ workflow: string; fingerprint: string; description: WorkflowDescription }>(
    db,
    sql`select ${d.workflow} as workflow, ${d.fingerprint} as fingerprint, ${d.description} as description from ${workflowDefinitions} ${d}
        join (values ${sql.join(
          keys.map((key) => sql`(${key.workflow}, ${key.fingerprint})`),
          sql`, `,
        )}) as ${k}(${bareName(workflowDefinitions.workflow)}, ${bareName(workflowDefinitions.fingerprint)}) on ${d.workflow} = ${k.workflow} and ${d.fingerprint} = ${k.fingerprint}`,
  );
}

/** How many runs that have not ended were last moved by one definition of a workflow, in one state. */
export interface RunsOnDefinition {
  workflow: string;
  /** Null: runs last moved before fingerprints were kept. */
  fingerprint: string | null;
  state: string;
  runs: number;
}

/**
 * The runs that have not ended (running, waiting, retryable) on a definition other than each
 * workflow's `current` one, counted per workflow, definition and state — with those last moved before
 * fingerprints were kept when `unrecorded` says they count. One statement; each workflow reads only the
 * stretches of `workflow_instances_open_definition_idx` before and after its current definition (and
 * its nulls), so runs on the current definition are never read.
 */
export async function countRunsOnOtherDefinitions(db: Db, current: readonly CurrentDefinition[]): Promise<RunsOnDefinition[]> {
  if (current.length === 0) return [];
  const rows = await queryRows<{ workflow: string; fingerprint: string | null; state: string; runs: number | string }>(db, runsOnOtherDefinitionsSql(current));
  return rows.map((row) => ({ workflow: row.workflow, fingerprint: row.fingerprint, state: row.state, runs: Number(row.runs) }));
}

/** A workflow's definition running now, and whether its runs last moved before fingerprints were kept count as on another. */
export interface CurrentDefinition {
  workflow: string;
  fingerprint: string;
  unrecorded: boolean;
}

/** The statement {@link countRunsOnOtherDefinitions} runs (for a test to read its plan). */
export function runsOnOtherDefinitionsSql(current: readonly CurrentDefinition[]): SQL {
  const open = sql`${w.workflow} = ${c.workflow} and ${w.status} in ('running', 'waiting', 'retryable')`;
  return sql`select ${o.workflow} as workflow, ${o.fingerprint} as fingerprint, ${oRun.state} as state, count(*)::int as runs
        from (values ${sql.join(
          current.map((each) => sql`(${each.workflow}, ${each.fingerprint}, ${each.unrecorded}::boolean)`),
          sql`, `,
        )}) as ${c}(${bareName(workflowDefinitions.workflow)}, ${bareName(workflowDefinitions.fingerprint)}, unrecorded)
        cross join lateral (
          select ${w.workflow} as ${bareName(workflowDefinitions.workflow)}, ${w.definitionFingerprint} as ${bareName(workflowDefinitions.fingerprint)},
              ${w.state} as ${bareName(workflowInstances.state)}
            from ${workflowInstances} ${w} where ${open} and ${w.definitionFingerprint} < ${c.fingerprint}
          union all
          select ${w.workflow}, ${w.definitionFingerprint}, ${w.state} from ${workflowInstances} ${w} where ${open} and ${w.definitionFingerprint} > ${c.fingerprint}
          union all
          select ${w.workflow}, ${w.definitionFingerprint}, ${w.state} from ${workflowInstances} ${w} where ${open} and ${w.definitionFingerprint} is null and ${c}.unrecorded
        ) ${o}
        group by ${o.workflow}, ${o.fingerprint}, ${oRun.state}
        order by ${o.workflow}, ${o.fingerprint} nulls first, ${oRun.state}`;
}

/** What a run's page needs to tell whether a deploy broke it: where it is, the definition that last moved it, and what its open waits take. */
export interface RunDefinition {
  workflow: string;
  state: string;
  status: string;
  /** Null: last moved before fingerprints were kept. */
  fingerprint: string | null;
  /** The events of its open waits, by name. */
  openEvents: string[];
}

/** The definition a task's run was last moved by, with its open waits' events (one probe of each index). */
export async function findRunDefinition(db: Db, taskId: string): Promise<RunDefinition | undefined> {
  const [row] = await queryRows<{ workflow: string; state: string; status: string; fingerprint: string | null; open_events: string[] | string | null }>(
    db,
    sql`select ${w.workflow} as workflow, ${w.state} as state, ${w.status} as status, ${w.definitionFingerprint} as fingerprint,
          array(select distinct ${s.event} from ${slots} ${s} where ${s.taskId} = ${w.taskId} and ${s.workflowInstanceId} = ${w.id} and ${s.status} = 'open' order by ${s.event}) as open_events
        from ${workflowInstances} ${w} where ${w.taskId} = ${taskId} order by ${w.createdAt} limit 1`,
  );
  if (!row) return undefined;
  const events = Array.isArray(row.open_events) ? row.open_events : (row.open_events ?? "").replace(/^\{|\}$/g, "").split(",").filter(Boolean);
  return { workflow: row.workflow, state: row.state, status: row.status, fingerprint: row.fingerprint, openEvents: events };
}
