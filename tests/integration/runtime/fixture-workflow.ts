import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { createScriptedModel, type ScriptedModel, type ScriptedReply, type ScriptedResponder } from "@/lib/models/scripted-model";
import { tasks } from "@/lib/registry";
import { type Agent, agentAnswered, answerOf, createRuntime, defineAgent, defineWorkflow, person, type Runtime, type RuntimeOptions, turn } from "@/lib/runtime";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "@/tests/support/databases";

/** Who may answer the Clerk besides the person who started the task (user ids, set by the fixture). */
const answerers: string[] = [];

/** Lets these people answer the Clerk too, in tasks started from now on. */
export function alsoAnswerable(userIds: readonly string[]): void {
  answerers.push(...userIds);
}

/** How long the people asked have to answer the Clerk before the run expires. */
export const ANSWER_WITHIN = { days: 2 } as const;

/** The agent {@link FileTask} runs; its model comes from the runtime (`resolveModel`). */
export const Clerk: Agent = defineAgent({ name: "Clerk", prompt: "You file things.", memory: "persistent", loop: () => FileTask });

/**
 * The runtime's own small workflow, over the platform's `tasks` table (nothing of the demo's): the
 * Clerk is asked to file the task; when it asks, the run parks in `Waiting` (the starter is asked
 * first; the fixture's other people may answer too, within {@link ANSWER_WITHIN}) and each answer
 * goes back to the Clerk, until it replies without asking.
 */
export const FileTask = defineWorkflow({
  name: "FileTask",
  tracks: tasks,
  agents: { Clerk },
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
      subscribe: {
        Answered: { as: "Filer", assignee: (run) => run.item.createdBy, candidates: () => answerers, within: ANSWER_WITHIN, unfinished: (run) => run.goto("Expired") },
      },
      on: {
        async Answered(run, { text, questionId }) {
          const reply = await Clerk.answer(run.item, text, questionId ? { questionId } : {});
          return reply.parked ? run.goto("Waiting") : run.goto("Completed");
        },
      },
    },
    Completed: { terminal: "success" },
    Expired: { terminal: "error", message: "nobody answered the Clerk in time" },
  },
});

/** The questionnaire {@link PayBack} puts to the person who started the task: how to be paid back. */
export const Payback = z
  .object({
    method: z
      .union([
        z.literal("bank_transfer").meta({ title: "Bank transfer", description: "To the account on file" }),
        z.literal("payroll").meta({ title: "Payroll", description: "With your next salary" }),
        z.literal("card_refund").meta({ title: "Card refund", description: "Back to the card you paid with" }),
      ])
      .describe("How should we pay you back?"),
    urgent: z.boolean().describe("Is it urgent?"),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "Use a three-letter currency code, like EUR.")
      .default("EUR")
      .describe("Which currency should we pay in?"),
    attendees: z.array(z.string()).min(1, "Name at least one attendee.").describe("Who attended?"),
  })
  .meta({ title: "Payback" });

/** How long the person has to answer the {@link Payback} questionnaire. */
export const PAYBACK_WITHIN = { days: 3 } as const;

/**
 * The runtime's own questionnaire workflow: asks the person who started the task the
 * {@link Payback} questionnaire and keeps the answer in the task's `input` (`payback`), or the reason
 * nothing came (`nothing`, with the note of a person who declined).
 */
export const PayBack = defineWorkflow({
  name: "PayBack",
  tracks: tasks,
  initial: "Asking",
  events: { PaidBack: answerOf(Payback) },
  states: {
    Asking: {
      async enter(run) {
        if (!run.item.createdBy) return run.goto("NotPaidBack");
        // Parks here; the answer (or nothing) arrives in `on.PaidBack`.
        await person.ask(run, "PaidBack", { to: run.item.createdBy, within: PAYBACK_WITHIN, attempts: 3 });
        return undefined;
      },
      on: {
        async PaidBack(run, answer) {
          const kept = answer.ok ? { payback: answer.value } : { nothing: answer.reason, ...(answer.note ? { note: answer.note } : {}) };
          await run.db.update(tasks).set({ input: { ...run.item.input, ...kept } }).where(eq(tasks.id, run.taskId));
          return answer.ok ? run.goto("Completed") : run.goto("NotPaidBack");
        },
      },
    },
    Completed: { terminal: "success" },
    NotPaidBack: { terminal: "error", message: "the person gave no payback details" },
  },
});

/** What the Clerk asks first. */
export const CLERK_QUESTION = "What was the 48.25 EUR charge on this task for?";

/** What the Clerk offers when an answer is too short to file. */
export const CLERK_OPTIONS = ["A client meeting", "Team travel"];

function toolResultTexts(prompt: LanguageModelV3Prompt): string[] {
  return prompt.flatMap((message) =>
    message.role === "tool" ? message.content.flatMap((part) => (part.type === "tool-result" && part.output.type === "text" ? [part.output.value] : [])) : [],
  );
}

/**
 * The Clerk's script: asks what the charge was for; an answer of fewer than three words gets a
 * second question offering {@link CLERK_OPTIONS}; a fuller answer is filed.
 */
export function clerkScript(prompt: LanguageModelV3Prompt): ScriptedReply {
  const answers = toolResultTexts(prompt);
  const last = answers.at(-1);
  if (last === undefined) return { toolCalls: [{ toolName: "ask", input: { question: CLERK_QUESTION } }] };
  if (last.trim().split(/\s+/).length < 3) return { toolCalls: [{ toolName: "ask", input: { question: "Which kind of cost was it?", options: CLERK_OPTIONS } }] };
  return { text: "Filed." };
}

/** A database with three people, and a runtime over `workflows` whose agents run on a scripted model. */
export interface RuntimeFixture {
  database: TestDatabase;
  runtime: Runtime;
  /** The model the runtime's agents run on (its `calls` are the prompts it was given). */
  model: ScriptedModel;
  /** The person who starts the tasks (asked first). */
  filer: User;
  /** Another person who may answer the Clerk. */
  colleague: User;
  /** Someone who may answer nothing. */
  outsider: User;
  /** Another runtime over the same database, as after a restart (fresh model, fresh everything). */
  restart(options?: Partial<RuntimeOptions>): { runtime: Runtime; model: ScriptedModel };
  /** Inserts a task for `workflow` (started by the filer) and starts its run. */
  startTask(workflow?: { readonly name: string }, title?: string): Promise<{ id: string }>;
  /** Starts a {@link PayBack} task and runs it to its questionnaire (put to the filer). */
  startQuestionnaireTask(): Promise<{ id: string }>;
}

export async function createRuntimeFixture(
  kind: DatabaseKind,
  options: { respond?: ScriptedResponder; workflows?: RuntimeOptions["workflows"] } & Partial<Omit<RuntimeOptions, "db" | "workflows">> = {},
): Promise<RuntimeFixture> {
  const { respond = clerkScript, workflows = [FileTask, PayBack], ...rest } = options;
  const database = await createTestDatabase(kind);
  const [filer, colleague, outsider] = await insertUsersIfAbsent(database.db, [
    { email: "filer@parley.test", name: "Fay Filer", roles: ["assignee"] },
    { email: "colleague@parley.test", name: "Cole League", roles: ["assignee"] },
    { email: "outsider@parley.test", name: "Otto Outsider", roles: ["operator"] },
  ]);
  answerers.splice(0, answerers.length, filer!.id, colleague!.id);
  function build(extra: Partial<RuntimeOptions>) {
    const model = createScriptedModel({ respond });
    const runtime = createRuntime({ db: database.db, workflows, resolveModel: () => model, ...rest, ...extra });
    return { runtime, model };
  }
  const { runtime, model } = build({});
  async function startTask(workflow: { readonly name: string } = FileTask, title = "Travel receipts") {
    const [task] = await database.db.insert(tasks).values({ workflow: workflow.name, title, input: {}, createdBy: filer!.id }).returning();
    await runtime.start(workflow, task!);
    return task!;
  }
  return {
    database,
    runtime,
    model,
    filer: filer!,
    colleague: colleague!,
    outsider: outsider!,
    restart: build,
    startTask,
    async startQuestionnaireTask() {
      const task = await startTask(PayBack, "Lisbon taxi");
      await runtime.drain();
      return task;
    },
  };
}
