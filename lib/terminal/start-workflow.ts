import { randomUUID } from "node:crypto";
import { openDatabase } from "@/db/client";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { Role } from "@/db/schema";
import { migrateParley } from "@/lib/database";
import { AppError } from "@/lib/errors";
import { validateTextAnswers } from "@/lib/questions";
import type { Registry, WorkflowEntry } from "@/lib/registry";
import { getRegistry } from "@/lib/registry/configured";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { answerAtTerminal, EXIT, type QuestionSource, runtimeQuestionSource, type TerminalIo } from "@/lib/runtime/terminal";
import { loadRunPage, startFormOf, startRunOnce } from "@/lib/runs";
import { keepDefinitions } from "@/lib/workflow-changes";

/** How `parley start` runs: where it writes, its environment, and why nobody is at the terminal (if nobody is). */
export interface StartCommandContext {
  io: TerminalIo;
  env: Readonly<Record<string, string | undefined>>;
  /** Why nobody is at this terminal (see `nobodyThere`), or undefined when someone may be. */
  nobodyThere: string | undefined;
  /** The registry to start from; the configured one (parley.config.ts) by default. */
  registry?: Registry;
}

/** What `parley start` was given: the start form's answers and the first question's, from files. */
export interface StartCommandOptions {
  /** The start form's answers by field (`--input FILE.json`), judged like typed ones. */
  input?: Record<string, unknown>;
  /** The first question the run puts here (`--answers FILE.json`). */
  answers?: Record<string, unknown>;
}

/** The most questions one `parley start` asks before it stops: a flow that asks for ever must not keep the command going. */
const MAX_QUESTIONS = 100;

/** The workflows a start form starts, as `parley start` lists them. */
function listStartable(registry: Registry, io: TerminalIo): number {
  const startable = registry.entries.filter((entry) => entry.start);
  if (startable.length === 0) {
    io.stdout.write("No registered workflow is started from a form (parley.config.ts registers them).\n");
    return EXIT.ok;
  }
  const width = Math.max(...startable.map((entry) => entry.workflow.name.length));
  for (const entry of startable) {
    io.stdout.write(`${entry.workflow.name.padEnd(width)}  ${entry.label}${entry.description ? ` — ${entry.description}` : ""}\n`);
  }
  io.stderr.write("`parley start <name>` starts one here, asking its start form and then its questions to you.\n");
  return EXIT.ok;
}

/**
 * A workflow's start form as a question at the terminal: judged by the workflow's own start schema,
 * like the Runs page's form, and once it passes the run is started (once: one start token per
 * command). Refusals are shown on their fields; a start form has no attempt limit.
 */
function startFormSource(entry: WorkflowEntry, form: Awaited<ReturnType<typeof startFormOf>>, start: (input: Record<string, unknown>) => Promise<string>): QuestionSource {
  let attempt = 1;
  return {
    title: form.spec.title ?? entry.label,
    intro: entry.description ? [entry.description] : [],
    spec: form.spec,
    async submit(typed) {
      const verdict = await validateTextAnswers(form.schema, typed, form.spec);
      if (verdict.ok) {
        try {
          return { status: "answered", value: { taskId: await start(verdict.value as Record<string, unknown>) } };
        } catch (error) {
          if (error instanceof AppError) return { status: "unavailable", message: error.message };
          throw error;
        }
      }
      attempt += 1;
      return {
        status: "refused",
        fieldErrors: verdict.fieldErrors,
        formErrors: verdict.formErrors,
        moreChecksAfterThese: verdict.moreChecksAfterThese,
        attempt: `attempt ${attempt}`,
        attemptsLeft: Number.POSITIVE_INFINITY,
      };
    },
    // Nothing is open to close: the end of input before the form was sent starts nothing.
    giveNothing: async () => ({ ok: false, message: "The start form was not sent: nothing was started." }),
  };
}

/**
 * `parley start [<workflow>] [--input FILE.json] [--answers FILE.json] [--no-input]`: starts any
 * workflow of the registry that has a start form, the way the Runs page does, on a database of its
 * own (in memory, or `DATABASE_URL`): its generated start form is asked here (or read from
 * `--input`), judged by its start schema, the run started, and each question it then puts to you is
 * asked here. With nobody at the terminal a question gets *nothing* (reason non-interactive) at once:
 * that is the flow's answer for a flow driven from this command line. Without a name it lists them.
 */
export async function startCommand(context: StartCommandContext, workflow: string | undefined, options: StartCommandOptions = {}): Promise<number> {
  const { io } = context;
  const registry = context.registry ?? getRegistry();
  if (workflow === undefined) return listStartable(registry, io);
  const entry = registry.entry(workflow);
  if (!entry?.start) {
    const names = registry.entries.filter((candidate) => candidate.start).map((candidate) => candidate.workflow.name);
    io.stderr.write(`There is no workflow “${workflow}” started from a form here${names.length > 0 ? `: the registered ones are ${names.join(", ")}` : ""}. \`parley start\` lists them.\n`);
    return EXIT.usage;
  }
  if (context.nobodyThere && !options.input) {
    io.stderr.write(`Nobody is at this terminal (${context.nobodyThere}): nothing was started. Give the start form's answers in a file: --input FILE.json.\n`);
    return EXIT.nothing;
  }

  // Never the server's data folder: one process owns it. A run started here gets a database of its own.
  const url = context.env.DATABASE_URL?.trim();
  const database = await openDatabase(url ? { kind: "postgres", url, maxConnections: 2 } : { kind: "pglite" });
  try {
    await migrateParley(database);
    const { db } = database;
    // Its runs record the definition that moved them, kept here as a server keeps it (on a shared database, a later server compares them).
    await keepDefinitions(db, registry.workflows);
    // Whoever runs the command may start this workflow and answer its questions: it is their own database.
    const roles: Role[] = [...new Set<Role>(["assignee", ...(entry.start.roles ?? ["operator"])])];
    const [you] = await insertUsersIfAbsent(db, [{ email: `terminal-${Date.now()}-${process.pid}@parley.local`, name: "You (terminal)", roles }]);
    const runtime = createRuntime({
      db,
      workflows: registry.workflows,
      resolveModel: (agent) => {
        const model = registry.scriptedModelFor(agent.name);
        if (!model) throw new Error(`No scripted model for ${agent.name}: a run started at the terminal runs on the registry's scripted models.`);
        return model;
      },
    });
    const form = await startFormOf(db, entry);
    const token = randomUUID();
    let taskId: string | undefined;
    const start = async (input: Record<string, unknown>) => {
      ({ taskId } = await startRunOnce(db, entry, { token, input, context: { runtime, by: you!.id, now: new Date() } }));
      return taskId;
    };
    // The started task goes to stderr: stdout carries only the answers given to the run's questions.
    const started = await answerAtTerminal(startFormSource(entry, form, start), { io: { stdout: { write: () => true }, stderr: io.stderr }, ...(options.input ? { answers: options.input } : {}) });
    if (started !== EXIT.ok || !taskId) return started;
    await runtime.drain();
    const subject = (await registry.describeTasks(db, [taskId])).get(taskId);
    io.stderr.write(`Started ${entry.label}${subject ? `: “${subject.title}”` : ""} (task ${taskId}).\n`);
    return await askTheRunsQuestions(runtime, { taskId, userId: you!.id, io, ...(options.answers ? { answers: options.answers } : {}), ...(context.nobodyThere ? { nobodyThere: context.nobodyThere } : {}) }, async () => {
      const page = await loadRunPage(db, registry, taskId!);
      if (!page) return "gone";
      const { status, state, waitingOn } = page.run;
      return `${status}${state.toLowerCase() === status ? "" : ` (${state})`}${waitingOn ? `, waiting on ${waitingOn}` : ""}`;
    });
  } finally {
    await database.close();
  }
}

/** Asks each question the run puts to this person, one after another, until it puts none; the first that is not answered ends the command. */
async function askTheRunsQuestions(
  runtime: Runtime,
  session: { taskId: string; userId: string; io: TerminalIo; answers?: Record<string, unknown>; nobodyThere?: string },
  runState: () => Promise<string>,
): Promise<number> {
  let asked = 0;
  for (; asked < MAX_QUESTIONS; asked++) {
    const question = (await runtime.questionsFor(session.userId)).find((candidate) => candidate.taskId === session.taskId);
    if (!question) break;
    // An answers file answers the first question put here; any later one is asked.
    const answers = asked === 0 ? session.answers : undefined;
    const code = await answerAtTerminal(runtimeQuestionSource(runtime, question, session.userId), {
      io: session.io,
      ...(answers ? { answers } : {}),
      ...(session.nobodyThere ? { nobodyThere: session.nobodyThere } : {}),
    });
    if (code !== EXIT.ok) return code;
  }
  session.io.stderr.write(
    asked === MAX_QUESTIONS
      ? `The run asked ${MAX_QUESTIONS} questions here and still asks more: stopping.\n`
      : `${asked === 0 ? "The run puts no question to you here" : "The run puts no more questions to you here"}: it is ${await runState()}.\n`,
  );
  return asked === MAX_QUESTIONS ? EXIT.failure : EXIT.ok;
}
