import type { Db } from "@/db/client";
import { findTasks, insertTask } from "@/db/queries/tasks";
import type { Task } from "@/db/schema";
import type { RegisteredWorkflow, Runtime } from "@/lib/runtime";
import type { ContextFact, TaskSubject } from "./define-app";

export { tasks } from "@/db/schema";
export type { Task };

/**
 * Starts a workflow over a new task of the platform's own table (`tasks`), in one transaction: there
 * is never a task nobody works on. For workflows that keep nothing of their own — no migration needed.
 */
export async function startPlatformTask(
  db: Db,
  runtime: Runtime,
  workflow: RegisteredWorkflow,
  task: { title: string; input: Record<string, unknown>; by: string | null },
): Promise<Task> {
  return db.transaction(async (tx) => {
    const executor = tx as unknown as Db;
    const created = await insertTask(executor, { workflow: workflow.name, title: task.title, input: task.input, createdBy: task.by });
    await runtime.start(workflow, created, { db: executor });
    return created;
  });
}

/**
 * Describes tasks of the platform's table: their title, and a summary a workflow writes from the
 * start input (none when not given).
 */
export async function describePlatformTasks(
  db: Db,
  taskIds: readonly string[],
  summarise: (input: Record<string, unknown>) => string | undefined = () => undefined,
): Promise<Map<string, TaskSubject>> {
  const rows = await findTasks(db, taskIds);
  return new Map(rows.map((task) => [task.id, { title: task.title, summary: summarise(task.input), startedBy: task.createdBy }]));
}

/** A task of the platform's table by id, or undefined. */
export async function findPlatformTask(db: Db, taskId: string): Promise<Task | undefined> {
  return (await findTasks(db, [taskId]))[0];
}

/** A start input's fields as context facts, labelled by `labels` (fields without a label are left out). */
export function inputFacts(input: Record<string, unknown>, labels: Readonly<Record<string, string>>): ContextFact[] {
  return Object.entries(labels).map(([key, label]) => {
    const value = input[key];
    return { label, value: value === undefined || value === null ? "" : Array.isArray(value) ? value.join(", ") : typeof value === "boolean" ? (value ? "yes" : "no") : String(value) };
  });
}
