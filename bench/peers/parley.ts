/**
 * Parley as a benchmark contender, driven only through the runtime's public API: a workflow whose
 * persistent agent asks, parks in `Waiting`, takes the person's answer through `submitAnswer` (the
 * inbox's road) and then finishes — or, for the replay benchmark, asks again after every answer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { pgTable, text, uuid } from "drizzle-orm/pg-core";
import { z } from "zod";
import { type Database, type Db, openDatabase } from "@/db/client";
import { migrateParley } from "@/lib/database";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { users } from "@/db/schema";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { createRuntime, defineAgent, defineWorkflow, type Runtime, turn } from "@/lib/runtime";
import { BENCH_SCRIPT } from "./script";

/** The benchmark's own tracked task table (created with {@link BENCH_TASKS_DDL}; not part of db/schema). */
export const benchTasks = pgTable("bench_tasks", {
  id: uuid("id").primaryKey().defaultRandom(),
  status: text("status").notNull().default("running"),
  assigneeId: uuid("assignee_id").notNull(),
});

const BENCH_TASKS_DDL = `create table if not exists bench_tasks (
  id uuid primary key default gen_random_uuid(),
  status text not null default 'running',
  assignee_id uuid not null
)`;

/** The question each task is waiting on, as the agent's reply named it (taskId → question id). */
const openQuestion = new Map<string, string>();

/** The benchmark's agent: persistent, looped, so it is offered the ask tool. Its model comes from the runtime. */
export const BenchClerk = defineAgent({ name: "BenchClerk", prompt: BENCH_SCRIPT.system, memory: "persistent", loop: () => BenchCycle });

/** Asks in `Running`, parks in `Waiting`, hands each answer to the agent; completes once the agent stops asking. */
export const BenchCycle = defineWorkflow({
  name: "BenchCycle",
  tracks: benchTasks,
  agents: { BenchClerk },
  initial: "Running",
  events: { Answered: z.object({ text: z.string(), questionId: z.string().optional() }) },
  states: {
    Running: {
      async enter(run) {
        const reply = await BenchClerk.ask(run.item, [turn.user(BENCH_SCRIPT.brief)]);
        if (!reply.parked) return run.goto("Completed");
        openQuestion.set(run.taskId, reply.question.id);
        return run.goto("Waiting");
      },
    },
    Waiting: {
      subscribe: { Answered: { as: "Filer", assignee: (run) => run.item.assigneeId } },
      on: {
        async Answered(run, { text, questionId }) {
          const reply = await BenchClerk.answer(run.item, text, questionId ? { questionId } : {});
          if (!reply.parked) return run.goto("Completed");
          openQuestion.set(run.taskId, reply.question.id);
          return run.goto("Waiting");
        },
      },
    },
    Completed: { terminal: "success" },
  },
});

/** How the scripted model behaves: answer and finish after the first answer, or ask again forever. */
export type ClerkBehaviour = "finish" | "ask-again";

/** A zero-latency scripted model: asks until it sees a tool result; then finishes, or asks again. */
function clerkModel(behaviour: ClerkBehaviour) {
  return createScriptedModel({
    name: `bench-${behaviour}`,
    maxRecordedCalls: 0,
    respond(prompt) {
      const answered = prompt.at(-1)?.role === "tool";
      if (answered && behaviour === "finish") return { text: BENCH_SCRIPT.done };
      return { toolCalls: [{ toolName: "ask", input: { question: BENCH_SCRIPT.question } }] };
    },
  });
}

/** Where a Parley contender keeps its data. */
export type ParleyTarget = { kind: "postgres"; url: string } | { kind: "pglite"; storage: "memory" | "file" };

/** One Parley runtime over a migrated database of its own, with a person to answer. */
export interface ParleyContender {
  readonly database: Database;
  /** The runtime in use (a new one after {@link renewRuntime}). */
  readonly runtime: Runtime;
  /**
   * Replaces the runtime by a new one over the same database, holding nothing read before — what
   * another instance, or a restarted process, starts from.
   */
  renewRuntime(): void;
  /** Creates a task and starts the workflow over it in one transaction; returns its id. */
  startTask(): Promise<string>;
  /** Runs every runnable job (the turn that asks, or the resumed turn); fails when none ran. */
  drain(): Promise<void>;
  /** The person answers the question the task waits on, through `submitAnswer`. */
  answer(taskId: string): Promise<void>;
  /** Park → answer → resume: start a task, the turn that asks, the answer, the turn that finishes. */
  cycle(): Promise<void>;
  /** Throws unless every task started by {@link cycle} completed. */
  verifyCompleted(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Opens a Parley contender. For PostgreSQL the database at `url` must exist and be empty (it is
 * migrated here); PGlite is created in memory or in a fresh temporary folder (removed on close).
 */
export async function openParley(target: ParleyTarget, behaviour: ClerkBehaviour, options: { migrate?: boolean } = {}): Promise<ParleyContender> {
  let folder: string | undefined;
  let database: Database;
  if (target.kind === "postgres") {
    database = await openDatabase({ kind: "postgres", url: target.url });
  } else {
    folder = target.storage === "file" ? mkdtempSync(path.join(tmpdir(), "parley-bench-pglite-")) : undefined;
    database = await openDatabase({ kind: "pglite", ...(folder ? { dataDir: folder } : {}) });
  }
  const { db } = database;
  if (options.migrate ?? true) {
    await migrateParley(database);
    await db.execute(sql.raw(BENCH_TASKS_DDL));
  }
  const [person] = await insertUsersIfAbsent(db, [{ email: "filer@bench.test", name: "Filer", roles: ["assignee"] }]);
  const personId = person?.id ?? (await findPersonId(db));
  const model = clerkModel(behaviour);
  const newRuntime = () => createRuntime({ db, workflows: [BenchCycle], resolveModel: () => model });
  let runtime = newRuntime();
  const started: string[] = [];

  const contender: ParleyContender = {
    database,
    get runtime() {
      return runtime;
    },
    renewRuntime() {
      runtime = newRuntime();
    },
    async startTask() {
      return db.transaction(async (tx) => {
        const [task] = await tx.insert(benchTasks).values({ assigneeId: personId }).returning();
        await runtime.start(BenchCycle, task!, { db: tx as unknown as Db });
        return task!.id;
      });
    },
    async drain() {
      const ran = await runtime.drain();
      if (ran === 0) throw new Error("drain ran no job: the cycle did not happen");
    },
    async answer(taskId) {
      const questionId = openQuestion.get(taskId);
      if (!questionId) {
        const last = (await runtime.events(taskId)).at(-1);
        throw new Error(`task ${taskId} is not waiting on a question; its last event: ${last?.kind} ${JSON.stringify(last?.data ?? {}).slice(0, 500)}`);
      }
      openQuestion.delete(taskId);
      const result = await runtime.submitAnswer({ questionId, by: personId, answer: { text: { answer: BENCH_SCRIPT.answer } } });
      if (result.status !== "answered") throw new Error(`the answer was not taken: ${JSON.stringify(result)}`);
    },
    async cycle() {
      const taskId = await contender.startTask();
      started.push(taskId);
      await contender.drain();
      await contender.answer(taskId);
      await contender.drain();
    },
    async verifyCompleted() {
      const rows = await db.select({ id: benchTasks.id, status: benchTasks.status }).from(benchTasks);
      const status = new Map(rows.map((row) => [row.id, row.status]));
      const unfinished = started.filter((id) => status.get(id) !== "completed");
      if (unfinished.length > 0) {
        throw new Error(`${unfinished.length} of ${started.length} Parley tasks did not complete (e.g. ${unfinished[0]}: ${status.get(unfinished[0]!)})`);
      }
      // The run's own record says so too: the answer arrived and the run completed.
      const sample = started.at(-1);
      if (sample) {
        const kinds = (await runtime.events(sample)).map((event) => event.kind);
        for (const kind of ["question-asked", "parked", "answered", "resumed", "completed"]) {
          if (!kinds.includes(kind as never)) throw new Error(`task ${sample}'s events lack ${kind}: ${kinds.join(", ")}`);
        }
      }
      return started.length;
    },
    async close() {
      await database.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
  };
  return contender;
}

async function findPersonId(db: Db): Promise<string> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, "filer@bench.test"));
  if (!row) throw new Error("the bench person is missing");
  return row.id;
}

/** The status of a bench task (its tracked row). */
export async function taskStatus(db: Db, taskId: string): Promise<string | undefined> {
  const [row] = await db.select({ status: benchTasks.status }).from(benchTasks).where(eq(benchTasks.id, taskId));
  return row?.status;
}
