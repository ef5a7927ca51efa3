import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { createScriptedModel, type ScriptedResponder } from "@/lib/models/scripted-model";
import { tasks } from "@/lib/registry";
import { type Agent, agentAnswered, createRuntime, defineAgent, defineWorkflow, type Runtime, type RuntimeOptions, turn } from "@/lib/runtime";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "@/tests/support/databases";

/**
 * The runtime's own small workflow, over the platform's `tasks` table (nothing of the demo's): the
 * Clerk is asked to file the task; when it asks the person who started it, the run parks in
 * `Waiting` and each answer goes back to the Clerk, until it replies without asking.
 */
export const FileTask = defineWorkflow({
  name: "FileTask",
  tracks: tasks,
  initial: "Running",
  events: { Answered: agentAnswered() },
  states: {
    Running: {
      async enter(run) {
        const reply = await Clerk.ask(run.item, [turn.user(`File this: ${run.item.title}`)]);
        return reply.parked ? run.goto("Waiting") : run.goto("Completed");
      },
    },
    Waiting: {
      subscribe: { Answered: { as: "Filer", assignee: (run) => run.item.createdBy } },
      on: {
        async Answered(run, { text, questionId }) {
          const reply = await Clerk.answer(run.item, text, questionId ? { questionId } : {});
          return reply.parked ? run.goto("Waiting") : run.goto("Completed");
        },
      },
    },
    Completed: { terminal: "success" },
  },
});

/** The agent {@link FileTask} runs; its model comes from the runtime (`resolveModel`). */
export const Clerk: Agent = defineAgent({ name: "Clerk", prompt: "You file things.", memory: "persistent", loop: () => FileTask });

/** A database with one person, and a runtime over `workflows` whose agents run on a model scripted by `respond`. */
export interface RuntimeFixture {
  database: TestDatabase;
  runtime: Runtime;
  /** The person who starts the tasks (and answers the Clerk). */
  filer: User;
  /** Inserts a task for `workflow` (started by the filer) and starts its run. */
  startTask(workflow?: { readonly name: string }, title?: string): Promise<{ id: string }>;
}

export async function createRuntimeFixture(
  kind: DatabaseKind,
  options: { respond?: ScriptedResponder; workflows?: RuntimeOptions["workflows"] } & Partial<Omit<RuntimeOptions, "db" | "workflows">> = {},
): Promise<RuntimeFixture> {
  const { respond = () => ({ text: "Filed." }), workflows = [FileTask], ...rest } = options;
  const database = await createTestDatabase(kind);
  const [filer] = await insertUsersIfAbsent(database.db, [{ email: "filer@parley.test", name: "Fay Filer", roles: ["assignee"] }]);
  const model = createScriptedModel({ respond });
  const runtime = createRuntime({ db: database.db, workflows, resolveModel: () => model, ...rest });
  return {
    database,
    runtime,
    filer: filer!,
    async startTask(workflow = FileTask, title = "Travel receipts") {
      const [task] = await database.db.insert(tasks).values({ workflow: workflow.name, title, input: {}, createdBy: filer!.id }).returning();
      await runtime.start(workflow, task!);
      return task!;
    },
  };
}
