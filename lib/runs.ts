import type { z } from "zod";
import { type Db, isDataException } from "@/db/client";
import { findRunStart, recordRunStart, type RunStart } from "@/db/queries/run-starts";
import { countRunsByState, findRun, listAnswersForTask, listPeopleToAsk, listRuns, namesOf, RUN_STATES, type RunCount, type RunRow, type RunState } from "@/db/queries/runs";
import type { User } from "@/db/schema";
import { ApiAsk } from "@/lib/asks/api-ask-workflow";
import { hasAnyRole, type Role } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { type QuestionSpec, specFromSchema } from "@/lib/questions";
import type { ContextPanel, Registry, StartContext, TaskSubject, WorkflowEntry } from "@/lib/registry";

export { RUN_STATES, type RunCount, type RunRow, type RunState };

/** Who may start a workflow when its entry does not say. */
const DEFAULT_START_ROLES: readonly Role[] = ["operator"];

/** A run as the operators' list shows it: the run, what it is about, and who started it. */
export interface RunListRow extends RunRow {
  /** The workflow's name for people (its registry label), or its code name when it is not registered. */
  workflowLabel: string;
  subject: TaskSubject | undefined;
  startedByName: string | null;
  /** The "run again" button's text, when its workflow offers one and the run has ended. */
  againLabel: string | null;
}

/** A workflow the signed-in person may start, for the start list. */
export interface StartableWorkflow {
  name: string;
  label: string;
  description: string | null;
}

/** The registry entries `user` may start, in registry order. */
export function startableWorkflows(registry: Registry, user: Pick<User, "roles">): WorkflowEntry[] {
  return registry.entries.filter((entry) => entry.start && hasAnyRole(user.roles, entry.start.roles ?? DEFAULT_START_ROLES));
}

/** The start form of a workflow: its schema (built with the people who can be asked) and the spec the form is generated from. */
export async function startFormOf(db: Db, entry: WorkflowEntry): Promise<{ schema: z.ZodObject; spec: QuestionSpec; submitLabel: string }> {
  const start = entry.start;
  if (!start) throw new AppError("not_found", `${entry.label} is not started from a form.`);
  const schema = typeof start.input === "function" ? start.input({ people: await listPeopleToAsk(db) }) : start.input;
  return { schema, spec: specFromSchema(schema, { title: entry.label, description: entry.description }), submitLabel: start.submitLabel ?? "Start" };
}

/** What a start form's submission did: started a run, or found the run its token started already. */
export type StartOnce = { status: "started" | "already_started"; taskId: string };

/** Thrown inside a start's transaction to roll it back: its token was taken by a start that committed first. */
class StartTokenTaken extends Error {}

/** The run an earlier submission of the same form started, if this caller may be sent to it. */
function earlierStart(earlier: RunStart, entry: WorkflowEntry, by: string): StartOnce {
  if (earlier.workflow !== entry.workflow.name) {
    throw new AppError("conflict", "This form was made for another workflow. Reload the page and start again.");
  }
  if (earlier.startedBy !== by) {
    throw new AppError("conflict", "This form was already used by someone else to start a run. Reload the page to start a new one.");
  }
  return { status: "already_started", taskId: earlier.taskId };
}

/**
 * Starts `entry`'s run from a start form at most once per form: the form's one-time `token` is
 * recorded in the transaction that creates the task and its run (the app's own `start.run`, nested
 * in it). The same form submitted again — a resubmit after the reply was lost, a double click, even
 * at the same moment — starts nothing and returns the run the token started, for the person who
 * started it; a token of another workflow or another person is refused.
 */
export async function startRunOnce(
  db: Db,
  entry: WorkflowEntry,
  start: { token: string; input: Record<string, unknown>; context: Omit<StartContext, "db"> },
): Promise<StartOnce> {
  const run = entry.start?.run;
  if (!run) throw new AppError("not_found", `${entry.label} is not started from a form.`);
  if (!isUuid(start.token)) throw new AppError("invalid_input", "This form has no valid start token. Reload the page and submit it again.");
  const earlier = await findRunStart(db, start.token);
  if (earlier) return earlierStart(earlier, entry, start.context.by);
  try {
    return await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const { taskId } = await run({ ...start.context, db: tx }, start.input);
      // Waits for a concurrent submission of the same token to commit or roll back; if it committed, ours is undone.
      const recorded = await recordRunStart(tx, { token: start.token, workflow: entry.workflow.name, taskId, startedBy: start.context.by, at: start.context.now });
      if (!recorded) throw new StartTokenTaken();
      return { status: "started" as const, taskId };
    });
  } catch (error) {
    // A value the start form's schema let through but the app's table cannot hold: the operator's to fix, and nothing was kept.
    if (isDataException(error)) throw new AppError("invalid_input", VALUE_NOT_STORED);
    if (!(error instanceof StartTokenTaken)) throw error;
    const taken = await findRunStart(db, start.token);
    if (!taken) throw error;
    return earlierStart(taken, entry, start.context.by);
  }
}

/** What an operator is told when the database refused a value of the start form. */
export const VALUE_NOT_STORED = "A value is too large, too small or otherwise out of range to be kept (a number or a date, most likely). Nothing was started: check the values and send the form again.";

/** How many runs one page of the runs list shows. */
export const RUNS_PAGE_SIZE = 50;

/**
 * The runs list: a page of runs of one workflow (or all), in one state (or all), newest first,
 * described by their workflows, with counts by state and in all (each exact up to a cap, then "more
 * than"). `after` is the `next` of the page before; `next` is set when older runs follow.
 */
export async function loadRuns(
  db: Db,
  registry: Registry,
  options: { workflow?: string; state?: RunState; pageSize?: number; after?: string | null; withoutApiAsks?: boolean },
): Promise<{ rows: RunListRow[]; counts: Record<RunState, RunCount>; total: RunCount; next?: string }> {
  // One workflow; or every one but the asks agents made over the API (what people started); or all.
  const workflows = options.workflow
    ? [options.workflow]
    : options.withoutApiAsks
      ? registry.entries.map((entry) => entry.workflow.name).filter((name) => name !== ApiAsk.name)
      : undefined;
  const pageSize = options.pageSize ?? RUNS_PAGE_SIZE;
  // A cursor is a task id; anything else starts from the newest.
  const after = isUuid(options.after) ? options.after : undefined;
  const [page, counts] = await Promise.all([listRuns(db, { workflows, state: options.state, limit: pageSize + 1, after }), countRunsByState(db, { workflows })]);
  const total = RUN_STATES.reduce((sum, state) => ({ count: sum.count + counts[state].count, atLeast: sum.atLeast || counts[state].atLeast }), { count: 0, atLeast: false });
  const runs = page.slice(0, pageSize);
  const next = page.length > pageSize ? runs.at(-1)?.taskId : undefined;
  const subjects = await registry.describeTasks(db, runs.map((run) => run.taskId));
  const names = await namesOf(db, [...subjects.values()].flatMap((subject) => (subject.startedBy ? [subject.startedBy] : [])));
  const rows = runs.map((run) => {
    const entry = registry.entry(run.workflow);
    const subject = subjects.get(run.taskId);
    const ended = run.runState === "completed" || run.runState === "failed" || run.runState === "nothing" || run.runState === "cancelled";
    return {
      ...run,
      workflowLabel: entry?.label ?? run.workflow,
      subject,
      startedByName: subject?.startedBy ? (names.get(subject.startedBy) ?? null) : null,
      againLabel: ended && run.status !== "retryable" && entry?.again ? entry.again.label : null,
    };
  });
  return next ? { rows, counts, total, next } : { rows, counts, total };
}

/** Everything a run page shows besides its events: the run, its subject, its context panel, who started it. */
export interface RunPageData {
  run: RunRow;
  workflowLabel: string;
  subject: TaskSubject | undefined;
  context: ContextPanel | undefined;
  startedByName: string | null;
  /** Whether its workflow is registered here (a run of an unregistered one can be read, not retried). */
  registered: boolean;
}

/** A run page's data, or undefined when no run is over the task. */
export async function loadRunPage(db: Db, registry: Registry, taskId: string): Promise<RunPageData | undefined> {
  const run = await findRun(db, taskId);
  if (!run) return undefined;
  const entry = registry.entry(run.workflow);
  // The run says its workflow: the task is described by that entry, not looked up again.
  const { subject, context } = await registry.aboutTask(db, taskId, run.workflow);
  const names = subject?.startedBy ? await namesOf(db, [subject.startedBy]) : new Map<string, string>();
  return {
    run,
    workflowLabel: entry?.label ?? run.workflow,
    subject,
    context,
    startedByName: subject?.startedBy ? (names.get(subject.startedBy) ?? null) : null,
    registered: Boolean(entry),
  };
}

export { listAnswersForTask, namesOf };
