import path from "node:path";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type Db, type MigrationSet, queryRows } from "@/db/client";
import { sql } from "drizzle-orm";
import { PLATFORM_APP_NAME, platformApp } from "@/lib/asks/platform-app";
import { type AnyWorkflow, markChecked, type RegisteredWorkflow, workflowProblems } from "@/lib/runtime";
import type { ContextPanel, ParleyApp, ParleyConfig, TaskSubject, WorkflowEntry } from "./define-app";

/** A mistake in the registry file: named, with the fix, when Parley starts. */
export class RegistryError extends Error {
  readonly code = "registry_invalid";
  constructor(message: string) {
    super(message);
    this.name = "RegistryError";
  }
}

/** The workflows this Parley runs, as every screen, the worker, the terminal and the tests read them. */
export interface Registry {
  readonly apps: readonly ParleyApp[];
  readonly entries: readonly WorkflowEntry[];
  /** The runtime definitions, for `createRuntime({ workflows })`. */
  readonly workflows: readonly RegisteredWorkflow[];
  /** The entry of a workflow by its name. */
  entry(workflow: string): WorkflowEntry | undefined;
  /** The apps' migrations, in registry order, each recorded in a table of its own. */
  migrations(): MigrationSet[];
  /**
   * What each of these tasks is about (one query to find their workflows, then one per workflow).
   * A task whose workflow is not registered, or that its workflow does not know, is left out.
   */
  describeTasks(db: Db, taskIds: readonly string[]): Promise<Map<string, TaskSubject & { workflow: string }>>;
  /** The context panel of one task, from its workflow's entry. */
  contextOf(db: Db, taskId: string): Promise<ContextPanel | undefined>;
  /**
   * What one task is about and its context panel, from the entry of `workflow`: for a caller that has
   * read the task's run, and so its workflow, already (a run's or a question's page), so it is not
   * looked up again. Neither for a workflow not registered here.
   */
  aboutTask(db: Db, taskId: string, workflow: string): Promise<{ subject: (TaskSubject & { workflow: string }) | undefined; context: ContextPanel | undefined }>;
  /** The scripted model an agent runs on in demo mode (one instance per agent), if its app gave one. */
  scriptedModelFor(agent: string): LanguageModelV3 | undefined;
}

const APP_NAME = /^[a-z][a-z0-9-]{0,39}$/;

/** The table an app's applied migrations are recorded in (in the `drizzle` schema). */
export function appMigrationsTable(app: string): string {
  return `app_migrations_${app.replaceAll("-", "_")}`;
}

/** Reads which registered workflow runs over each task. */
async function workflowsOfTasks(db: Db, taskIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(taskIds)];
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ task_id: string; workflow: string }>(
    db,
    sql`select distinct on (task_id) task_id, workflow from workflow_instances where task_id = any(${`{${ids.join(",")}}`}::uuid[]) order by task_id, created_at`,
  );
  return new Map(rows.map((row) => [row.task_id, row.workflow]));
}

/**
 * Builds the registry from its file, refusing a mistake there with its fix: two apps or workflows of
 * one name, an app name that cannot name a table, a scripted model for an agent named twice or for
 * one its workflow does not name, and every mistake of the workflows and their agents that the
 * types cannot see (`workflowProblems`: a questionnaire the form cannot ask, a loop whose workflow
 * is not registered, two agents of one name…), each said once. A runtime built on `workflows` does not
 * check them again. The platform's own app (`parley`: the workflow behind API asks) comes first in
 * every registry.
 */
export function createRegistry(file: ParleyConfig): Registry {
  const config: ParleyConfig = { apps: [platformApp, ...file.apps] };
  const problems: string[] = [];
  const appNames = new Set<string>();
  if (file.apps.some((app) => app.name === PLATFORM_APP_NAME)) problems.push(`App "${PLATFORM_APP_NAME}" is the platform's own: name your app something else.`);
  const byName = new Map<string, WorkflowEntry>();
  const scripted = new Map<string, () => LanguageModelV3>();
  for (const app of config.apps) {
    if (!APP_NAME.test(app.name)) problems.push(`App "${app.name}": name it with lower-case letters, digits and dashes (like "expense-review"); its migrations are recorded under that name.`);
    if (appNames.has(app.name) && app.name !== PLATFORM_APP_NAME) problems.push(`App "${app.name}" is registered twice in parley.config.ts: list each app once.`);
    appNames.add(app.name);
    for (const entry of app.workflows) {
      const name = entry.workflow.name;
      if (byName.has(name)) problems.push(`Workflow "${name}" (app "${app.name}") is registered twice: workflow names are unique across apps — rename one.`);
      byName.set(name, entry);
      const named = Object.keys(entry.workflow.agents ?? {});
      for (const [agent, model] of Object.entries(entry.scripted ?? {})) {
        if (!model) continue;
        if (!named.includes(agent)) problems.push(`Workflow "${name}" (app "${app.name}") gives a scripted model for agent "${agent}", which it does not name in \`agents\` (${named.join(", ") || "none"}): key it by one of its agents' names.`);
        if (scripted.has(agent)) problems.push(`Agent "${agent}" has two scripted models (workflow "${name}"): give each agent one.`);
        scripted.set(agent, model);
      }
    }
  }
  const entries = [...byName.values()];
  const workflows: readonly RegisteredWorkflow[] = entries.map((entry) => entry.workflow);
  // What the types cannot see, checked once here (a questionnaire the form cannot ask would otherwise be found by the first run to enter its state).
  problems.push(...workflowProblems(workflows as readonly unknown[] as readonly AnyWorkflow[]));
  if (problems.length > 0) throw new RegistryError(`parley.config.ts has ${problems.length === 1 ? "a mistake" : `${problems.length} mistakes`}:\n- ${problems.join("\n- ")}`);
  markChecked(workflows);

  const models = new Map<string, LanguageModelV3>();
  return {
    apps: config.apps,
    entries,
    workflows,
    entry: (workflow) => byName.get(workflow),
    migrations: () =>
      config.apps.flatMap((app) =>
        app.migrations ? [{ folder: path.resolve(/*turbopackIgnore: true*/ process.cwd(), app.migrations), table: appMigrationsTable(app.name) }] : [],
      ),
    async describeTasks(db, taskIds) {
      const workflows = await workflowsOfTasks(db, taskIds);
      const groups = new Map<string, string[]>();
      for (const [taskId, workflow] of workflows) {
        if (!byName.has(workflow)) continue;
        groups.set(workflow, [...(groups.get(workflow) ?? []), taskId]);
      }
      const described = new Map<string, TaskSubject & { workflow: string }>();
      await Promise.all(
        [...groups].map(async ([workflow, ids]) => {
          for (const [taskId, subject] of await byName.get(workflow)!.describe(db, ids)) described.set(taskId, { ...subject, workflow });
        }),
      );
      return described;
    },
    async contextOf(db, taskId) {
      const workflow = (await workflowsOfTasks(db, [taskId])).get(taskId);
      const entry = workflow ? byName.get(workflow) : undefined;
      return entry?.context?.(db, taskId);
    },
    async aboutTask(db, taskId, workflow) {
      const entry = byName.get(workflow);
      if (!entry) return { subject: undefined, context: undefined };
      const [subjects, context] = await Promise.all([entry.describe(db, [taskId]), entry.context?.(db, taskId)]);
      const subject = subjects.get(taskId);
      return { subject: subject ? { ...subject, workflow } : undefined, context };
    },
    scriptedModelFor(agent) {
      const make = scripted.get(agent);
      if (!make) return undefined;
      let model = models.get(agent);
      if (!model) models.set(agent, (model = make()));
      return model;
    },
  };
}
