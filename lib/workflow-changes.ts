import type { Db } from "@/db/client";
import {
  countRunsOnOtherDefinitions,
  findDefinitionDescriptions,
  findFirstKeptDefinition,
  findRunDefinition,
  keepWorkflowDefinitions,
  listKeptDefinitions,
} from "@/db/queries/workflow-definitions";
import { humanizeName } from "@/lib/questions";
import type { Registry } from "@/lib/registry";
import {
  changesAffecting,
  compareDefinitions,
  type DefinitionChange,
  type JsonSchema,
  type RegisteredWorkflow,
  shortFingerprint,
  workflowDefinition,
  type WorkflowDescription,
} from "@/lib/runtime";
import { stateWords } from "@/lib/plain-words";

/** The document that says how to change a workflow safely, as logs and screens point to it. */
export const WORKFLOW_CHANGES_DOC = "docs/workflow-changes.md";

/**
 * Keeps the definitions of `workflows` as this deployment runs them (`workflow_definitions`), each
 * once: a server does it at every start, so a later start can compare what a deploy changed.
 */
export async function keepDefinitions(db: Db, workflows: readonly RegisteredWorkflow[], at: Date = new Date()): Promise<void> {
  await keepWorkflowDefinitions(
    db,
    workflows.map((workflow) => {
      const { description, fingerprint } = workflowDefinition(workflow);
      return { workflow: workflow.name, fingerprint, description };
    }),
    at,
  );
}

const keyOf = (workflow: string, fingerprint: string): string => `${workflow}\u0000${fingerprint}`;

/** One change a deploy made that breaks runs parked on an earlier definition, with how many it breaks. */
export interface BreakingChangeCount {
  change: string;
  effect: string;
  /** The states those runs are parked in. */
  states: string[];
  runs: number;
}

/** A registered workflow whose definition changed in ways that break runs parked on an earlier one. */
export interface WorkflowChangeReport {
  workflow: string;
  /** The changes, each with the runs it breaks, in the order {@link compareDefinitions} lists them. */
  changes: BreakingChangeCount[];
  /** The runs the changes break, each counted once. */
  runs: number;
  /** Runs that have not ended on a definition this deployment never kept (a process that kept none started them): nothing can be said of them. */
  unknown: number;
}

/**
 * What the definitions running now break of the runs that have not ended: per workflow, each
 * change and how many runs it breaks, and the runs on a definition never kept. A run last moved
 * before fingerprints were kept counts as on the workflow's first kept definition. Workflows that
 * break nothing are left out. Reads the kept definitions (a few rows per workflow), one grouped count
 * that skips the runs on the current definitions, and the descriptions of the older ones counted.
 */
export async function reviewWorkflowChanges(db: Db, workflows: readonly RegisteredWorkflow[]): Promise<WorkflowChangeReport[]> {
  const current = new Map(workflows.map((workflow) => [workflow.name, workflowDefinition(workflow)]));
  const kept = await listKeptDefinitions(db, [...current.keys()]);
  const first = new Map<string, string>();
  for (const definition of kept) if (!first.has(definition.workflow)) first.set(definition.workflow, definition.fingerprint);
  const counts = await countRunsOnOtherDefinitions(
    db,
    [...current].map(([workflow, { fingerprint }]) => ({ workflow, fingerprint, unrecorded: (first.get(workflow) ?? fingerprint) !== fingerprint })),
  );
  if (counts.length === 0) return [];
  const wanted = new Map<string, { workflow: string; fingerprint: string }>();
  for (const count of counts) {
    const fingerprint = count.fingerprint ?? first.get(count.workflow);
    if (fingerprint) wanted.set(keyOf(count.workflow, fingerprint), { workflow: count.workflow, fingerprint });
  }
  const descriptions = new Map(
    (await findDefinitionDescriptions(db, [...wanted.values()])).map((row): [string, WorkflowDescription] => [keyOf(row.workflow, row.fingerprint), row.description]),
  );
  const reports = new Map<string, WorkflowChangeReport>();
  const changesOf = new Map<string, DefinitionChange[]>();
  for (const count of counts) {
    const report = reports.get(count.workflow) ?? { workflow: count.workflow, changes: [], runs: 0, unknown: 0 };
    reports.set(count.workflow, report);
    const fingerprint = count.fingerprint ?? first.get(count.workflow)!;
    const key = keyOf(count.workflow, fingerprint);
    const before = descriptions.get(key);
    if (!before) {
      report.unknown += count.runs;
      continue;
    }
    let changes = changesOf.get(key);
    if (!changes) changesOf.set(key, (changes = compareDefinitions(before, current.get(count.workflow)!.description)));
    const breaking = changesAffecting(changes, { state: count.state });
    if (breaking.length === 0) continue;
    report.runs += count.runs;
    for (const change of breaking) {
      const counted = report.changes.find((each) => each.change === change.change);
      if (counted) {
        counted.runs += count.runs;
        if (!counted.states.includes(count.state)) counted.states.push(count.state);
      } else report.changes.push({ change: change.change, effect: change.effect, states: [count.state], runs: count.runs });
    }
  }
  return [...reports.values()].filter((report) => report.runs > 0 || report.unknown > 0);
}

const runs = (count: number) => (count === 1 ? "1 run" : `${count.toLocaleString("en-US")} runs`);
const listed = (names: readonly string[]) => (names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/**
 * A start's warnings about one workflow, one log message each (several lines): the runs its change
 * breaks — each change with how many runs in which states, what it means, what to do — and the runs
 * on a definition never kept.
 */
export function workflowChangeWarnings(report: WorkflowChangeReport): string[] {
  const warnings: string[] = [];
  if (report.runs > 0) {
    const effects = [...new Set(report.changes.map((change) => change.effect))];
    warnings.push(
      [
        `Parley: warning: the workflow ${report.workflow} changed in a way that breaks ${runs(report.runs)} parked on an earlier definition of it:`,
        ...report.changes.map((change) => `  - ${change.change} (${runs(change.runs)}, in ${listed(change.states)})`),
        `  What it means: ${effects.join("; ")}.`,
        `  What to do: keep the earlier definition registered under the name ${report.workflow} until those runs end, and give the new one a name of its own;` +
          ` or put the change back; or cancel those runs from their run pages. See ${WORKFLOW_CHANGES_DOC}.`,
      ].join("\n"),
    );
  }
  if (report.unknown > 0) {
    warnings.push(
      `Parley: warning: ${runs(report.unknown)} of the workflow ${report.workflow} ${report.unknown === 1 ? "was" : "were"} last moved by a definition this deployment never kept` +
        " (started by a process that does not keep definitions), so Parley cannot tell whether the definition running now breaks them.",
    );
  }
  return warnings;
}

/**
 * What a server does at start about changed workflows: keeps the definitions it runs, then warns, per
 * workflow, of the runs its changes break. It never stops the server: a failure to check is logged.
 */
export async function checkWorkflowChangesAtStart(db: Db, workflows: readonly RegisteredWorkflow[], log: (warning: string) => void): Promise<WorkflowChangeReport[]> {
  try {
    await keepDefinitions(db, workflows);
    const reports = await reviewWorkflowChanges(db, workflows);
    for (const report of reports) for (const warning of workflowChangeWarnings(report)) log(warning);
    return reports;
  } catch (error) {
    log(`Parley: warning: could not check whether a changed workflow breaks runs parked on an earlier definition: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

/** A run page's notice that the workflow changed under the run: what changed and what it means, in words for people. */
export interface RunDefinitionNotice {
  /** The workflow's label. */
  workflowLabel: string;
  /** The first characters of the fingerprint of the definition that last moved the run. */
  definition: string;
  /** What changed, a sentence each. */
  changes: string[];
  /** What that means for the run, a sentence each, each said once. */
  effects: string[];
}

/** The question a field asks in `schema` (its `description`, else `title`), if it says one; `path` as {@link DefinitionChange.field} has it. */
function questionOf(schema: JsonSchema | "given" | undefined, path: string): string | undefined {
  let node: unknown = schema === "given" ? undefined : schema;
  for (const part of path.split(".")) {
    node = (node as { properties?: Record<string, unknown> } | undefined)?.properties?.[part.replace(/(\[\])+$/, "")];
  }
  const words = node as { description?: unknown; title?: unknown } | undefined;
  return typeof words?.description === "string" ? words.description : typeof words?.title === "string" ? words.title : undefined;
}

/** A field as people read it: the question it asks (before the change, else after it), else its name in words. */
function fieldWords(before: JsonSchema | "given" | undefined, after: JsonSchema | "given" | undefined, path: string): string {
  const asked = questionOf(before, path) ?? questionOf(after, path);
  return asked ? `“${asked}”` : `the field “${humanizeName(path.split(".").at(-1)!.replace(/(\[\])+$/, ""))}”`;
}

/** A change in words for people: states by their label, events and fields by their names in words, a field by the question it asks. */
function changeInWords(change: DefinitionChange, before: WorkflowDescription, after: WorkflowDescription, registry: Pick<Registry, "entry">): string {
  const state = change.states[0] ?? "";
  const stateName = `“${before.states[state]?.label ?? stateWords(registry, before.workflow, state)}”`;
  const event = change.event ? `“${humanizeName(change.event)}”` : "";
  switch (change.kind) {
    case "state-removed":
      return `Its state, ${stateName}, is no longer in the workflow.`;
    case "state-ends":
      return `Its state, ${stateName}, now ends the workflow.`;
    case "event-removed":
      return `The workflow no longer takes ${event}, which this run waits for.`;
    case "handler-removed":
      return `In ${stateName}, the workflow no longer handles ${event}, which this run waits for.`;
    case "deadline-removed":
      return `In ${stateName}, the deadline of its wait for ${event} no longer leads anywhere.`;
    case "event-kind-changed":
      return `The workflow takes ${event} differently now: no longer as ${before.events[change.event ?? ""]?.kind === "answer" ? "a person's answer" : "a plain payload"}.`;
    case "schema-narrowed": {
      const subject = change.field ? `: ${fieldWords(before.events[change.event ?? ""]?.schema, after.events[change.event ?? ""]?.schema, change.field)}` : "";
      const what = before.events[change.event ?? ""]?.kind === "answer" ? `The answer to ${event}` : `What ${event} takes`;
      return `${what}${subject} ${change.detail ?? "changed"}.`;
    }
  }
}

/**
 * The notice a run page shows when the run has not ended and the definition running now changed,
 * since the one that last moved it, in a way that breaks it; undefined otherwise (a run on the
 * current definition, one whose definition changed compatibly, an ended run, an unregistered workflow).
 */
export async function runDefinitionNotice(db: Db, registry: Pick<Registry, "entry">, taskId: string): Promise<RunDefinitionNotice | undefined> {
  const run = await findRunDefinition(db, taskId);
  if (!run || !["running", "waiting", "retryable"].includes(run.status)) return undefined;
  const entry = registry.entry(run.workflow);
  if (!entry) return undefined;
  const current = workflowDefinition(entry.workflow);
  const fingerprint = run.fingerprint ?? (await findFirstKeptDefinition(db, run.workflow))?.fingerprint;
  if (!fingerprint || fingerprint === current.fingerprint) return undefined;
  const [kept] = await findDefinitionDescriptions(db, [{ workflow: run.workflow, fingerprint }]);
  if (!kept) return undefined;
  const breaking = changesAffecting(compareDefinitions(kept.description, current.description), { state: run.state, events: run.openEvents });
  if (breaking.length === 0) return undefined;
  return {
    workflowLabel: entry.label,
    definition: shortFingerprint(fingerprint),
    changes: breaking.map((change) => changeInWords(change, kept.description, current.description, registry)),
    effects: [...new Set(breaking.map((change) => `${change.effect.charAt(0).toUpperCase()}${change.effect.slice(1)}.`))],
  };
}
