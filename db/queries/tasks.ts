import { inArray } from "drizzle-orm";
import type { Db } from "../client";
import { type Task, tasks } from "../schema";

/** Creates a task in the platform's own task table. */
export async function insertTask(db: Db, task: { workflow: string; title: string; input: Record<string, unknown>; createdBy: string | null }): Promise<Task> {
  const [row] = await db.insert(tasks).values(task).returning();
  return row!;
}

/** These tasks of the platform's own table, in one query (unknown ids are left out). */
export async function findTasks(db: Db, taskIds: readonly string[]): Promise<Task[]> {
  if (taskIds.length === 0) return [];
  return db.select().from(tasks).where(inArray(tasks.id, [...new Set(taskIds)]));
}
