import type { Db } from "@/db/client";
import { findTasks, insertTask } from "@/db/queries/tasks";
import type { Task } from "@/db/schema";
import type { RegisteredWorkflow, Runtime, StartInputOf } from "@/lib/runtime";
import type { ContextFact, TaskSubject } from "./define-app";

export { tasks } from "@/db/schema";
export type { Task };

/** A task of the platform's table as a workflow over it sees it: its `input` typed as the workflow's start input (`defineWorkflow({ input })`). */
export type PlatformTaskOf<W extends RegisteredWorkflow> = Omit<Task, "input"> & { input: PlatformInputOf<W> };

/** A platform-task workflow's start input: its start schema's output, or any record for a workflow that declares none. */
export type PlatformInputOf<W extends RegisteredWorkflow> = [StartInputOf<W>] extends [never] ? Record<string, unknown> : StartInputOf<W>;

/**
 * Starts a workflow over a new task of the platform's own table (`tasks`), in one transaction: there
 * is never a task nobody works on. For workflows that keep nothing of their own — no migration needed.
 * `input` is the workflow's start input (what its `input` schema gives), kept as the task's.
 */
export async function startPlatformTask<W extends RegisteredWorkflow>(
  db: Db,
  runtime: Runtime,
  workflow: W,
  task: { title: string; input: PlatformInputOf<W>; by: string | null },
): Promise<Task> {
  return db.transaction(async (tx) => {
    const executor = tx as unknown as Db;
    // A start input is a zod object's output (`defineWorkflow({ input })`), so a record, as the column holds it.
    const created = await insertTask(executor, { workflow: workflow.name, title: task.title, input: task.input as Record<string, unknown>, createdBy: task.by });
    await runtime.start(workflow, created, { db: executor });
    return created;
  });
}

/**
 * Describes tasks of the platform's table: their title, and a summary a workflow writes from the
 * start input (none when not given) — typed as the start input of `workflow` when it is given
 * (`describePlatformTasks(db, taskIds, DeployApproval, (input) => input.change)`).
 */
export async function describePlatformTasks<W extends RegisteredWorkflow = RegisteredWorkflow>(
  db: Db,
  taskIds: readonly string[],
  workflow?: W,
  summarise: (input: PlatformInputOf<W>) => string | undefined = () => undefined,
): Promise<Map<string, TaskSubject>> {
  const rows = (await findTasks(db, taskIds)).filter((task) => !workflow || task.workflow === workflow.name) as PlatformTaskOf<W>[];
  return new Map(rows.map((task) => [task.id, { title: task.title, summary: summarise(task.input), startedBy: task.createdBy }]));
}

/**
 * A task of the platform's table by id, or undefined — with `workflow`, only a task of that workflow,
 * its `input` typed as the workflow's start input.
 */
export async function findPlatformTask<W extends RegisteredWorkflow = RegisteredWorkflow>(db: Db, taskId: string, workflow?: W): Promise<PlatformTaskOf<W> | undefined> {
  const [task] = await findTasks(db, [taskId]);
  return task && (!workflow || task.workflow === workflow.name) ? (task as PlatformTaskOf<W>) : undefined;
}

/** A start input's fields as context facts, labelled by `labels` (a field of the input each; fields without a label are left out). */
export function inputFacts<Input extends Record<string, unknown>>(input: Input, labels: { readonly [K in keyof Input & string]?: string }): ContextFact[] {
  return Object.entries(labels).flatMap(([key, label]) => {
    if (label === undefined) return [];
    const value = input[key];
    return [{ label, value: value === undefined || value === null ? "" : Array.isArray(value) ? value.join(", ") : typeof value === "boolean" ? (value ? "yes" : "no") : String(value) }];
  });
}
