/**
 * `parley/testing`: the test kit an app's own workflow tests use, beside `parley/workflows`. One call
 * gives a test what Parley gives the app when it runs: a database of its own (an in-memory PGlite by
 * default, or a PostgreSQL one) migrated with the platform's migrations and the app's own, the demo
 * people in it, a runtime on the app's workflows whose agents run on the app's scripted models, and a
 * clock the test moves. People answer as they would at Parley's doors (`kit.as(sam).answer(…)`), an
 * operator starts a workflow from its start form (`kit.start(…)`), and the runtime runs the work
 * queued (`kit.drain()`) or what a worker does when it wakes (`kit.tick()`). See docs/sdk.md.
 *
 * Built on the test databases the platform's own tests use (./test-databases.ts: migrated databases made once
 * per process and handed out emptied), so a kit costs a test what a platform test pays.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type Db, migrateDatabase } from "@/db/client";
import { seedGroups } from "@/db/queries/group-routing";
import { findRun, type RunRow } from "@/db/queries/runs";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { parleyMigrations } from "@/lib/database";
import { DEMO_GROUPS, DEMO_USERS } from "@/lib/demo-people";
import { type FormAnswer, validateFormAnswer } from "@/lib/questions";
import { type AppAgentNames, createRegistry, type ParleyApp, type WorkflowEntry } from "@/lib/registry";
import { startFormOf } from "@/lib/runs";
import {
  AGENT_ANSWER_FIELD,
  createRuntime,
  type DeclineQuestionResult,
  type QuestionRow,
  type Runtime,
  type RuntimeOptions,
  type SubmitAnswerResult,
} from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type DatabaseKind, type TestDatabase } from "./test-databases";

export { DAY, HOUR, manualClock } from "./test-clock";
export { validateFormAnswer } from "@/lib/questions";
export { DATABASE_KINDS, type DatabaseKind, type TestDatabase };
export type { DeclineQuestionResult, QuestionRow, RunRow, Runtime, RuntimeOptions, SubmitAnswerResult, User };

/** The demo people, by first name: Ada (admin), Omar (operator), Sam and Priya (assignees), Lee (assignee and operator). */
export type DemoPersonName = "ada" | "omar" | "sam" | "priya" | "lee";

const DEMO_PERSON_NAMES: readonly DemoPersonName[] = ["ada", "omar", "sam", "priya", "lee"];

/** A clock a test moves: the runtime reads the time from it (SLA deadlines, expiry, escalation). */
export interface TestClock {
  now(): Date;
  /** Moves the clock forward by this many milliseconds (`kit.clock.advance(2 * DAY)`). */
  advance(milliseconds: number): void;
}

/**
 * The kit's clock unless a test brings its own ({@link manualClock} stands still until moved): the
 * real time, moved forward by what the test advanced — so what a run records keeps its order.
 */
function runningClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(milliseconds) {
      offset += milliseconds;
    },
  };
}

/** What a test asks of the kit: the app, and anything it wants otherwise than by default. */
export interface TestKitOptions<Names extends DemoPersonName, App extends ParleyApp = ParleyApp> {
  /** The app under test, as its folder exports it (`defineApp`): its workflows, scripted models and migrations. */
  app: App;
  /** Which database: an in-memory PGlite (default), or a PostgreSQL one (`PARLEY_TEST_POSTGRES_URL`; see {@link DATABASE_KINDS}). */
  database?: DatabaseKind;
  /** Which demo people to create, in this order (default: all five). */
  people?: readonly Names[];
  /** Also create the demo groups (`finance`: Sam and Priya; `on-call`: Priya and Lee), of the people created. */
  groups?: boolean;
  /** The clock the runtime reads (default: the real time, moved forward by `kit.clock.advance`). */
  clock?: TestClock;
  /** Scripted models by agent name — the names of the app's workflows' `agents` — in place of the ones the app's entries give (`scripted`). */
  models?: { readonly [Name in AppAgentNames<App>]?: () => LanguageModelV3 };
  /** Anything else of the runtime (e.g. `announce`); these win over the kit's own. */
  runtime?: Partial<Omit<RuntimeOptions, "db" | "workflows">>;
}

/** What an operator's start form did: started a run over a new task, or was refused on its fields in the schema's words. */
export type StartResult =
  | { status: "started"; taskId: string }
  | { status: "refused"; fieldErrors: Record<string, string[]>; formErrors: string[] };

/** A person at Parley's doors: their open questions, and answering or declining one of them. */
export interface PersonAtParley {
  readonly person: User;
  /** Their open questions, soonest due first (what their inbox lists). */
  questions(): Promise<QuestionRow[]>;
  /** Their first open question; throws when they have none. */
  nextQuestion(): Promise<QuestionRow>;
  /**
   * Answers a question as typed at a terminal: an agent's free-text question takes a string; a
   * questionnaire takes each field's text by field (`{ method: "bank transfer", urgent: "no" }`),
   * judged by the flow's own schema — refused on its fields, or deposited once.
   */
  answer(question: QuestionRow | string, answer: string | Readonly<Record<string, string | null | undefined>>): Promise<SubmitAnswerResult>;
  /** "I can't answer this": ends the question with nothing, reason `declined`, with an optional note for the asker. */
  decline(question: QuestionRow | string, note?: string): Promise<DeclineQuestionResult>;
}

/** A test's Parley: database, people, runtime and clock. Close it when the test ends (`afterEach`). */
export interface TestKit<Names extends DemoPersonName = DemoPersonName> {
  /** The test's own database (close it with {@link TestKit.close}). */
  readonly database: TestDatabase;
  /** The database handle, as Parley hands it to the app's code. */
  readonly db: Db;
  /** The runtime over the app's workflows. */
  readonly runtime: Runtime;
  /** The model each agent runs on, by agent name. */
  readonly models: ReadonlyMap<string, LanguageModelV3>;
  readonly clock: TestClock;
  /** The demo people created, by first name. */
  readonly people: Readonly<Record<Names, User>>;
  /**
   * Starts a workflow as an operator does from its start form: the form's fields as a browser posts
   * them (strings), judged by the start schema, then the entry's `start.run`. `by` defaults to the
   * first demo person who is an operator. Runs nothing yet: {@link TestKit.drain} does.
   */
  start(workflow: string | { readonly name: string }, form: FormAnswer, options?: { by?: User }): Promise<StartResult>;
  /** A person at Parley's doors. */
  as(person: User): PersonAtParley;
  /** Where a task's run stands: its state, status, why it got nothing, whom it waits on. */
  run(taskId: string): Promise<RunRow | undefined>;
  /** Runs the queued jobs until none is runnable; returns how many ran. */
  drain(): Promise<number>;
  /** What a worker does when it wakes: the SLA sweeps (expiry, escalation), then the queued jobs. */
  tick(): Promise<{ expired: number; escalated: number; jobs: number }>;
  /** Another runtime over the same database, with fresh models, as after a restart. */
  restart(options?: Partial<Omit<RuntimeOptions, "db" | "workflows">>): { runtime: Runtime; models: ReadonlyMap<string, LanguageModelV3> };
  /** Gives the database back (drops it on PostgreSQL). */
  close(): Promise<void>;
}

/**
 * A Parley for one test: a database of its own migrated with the platform's and the app's
 * migrations, the demo people, and a runtime on the app's workflows. The app is checked as Parley
 * checks it at start (a registry mistake, or a workflow the runtime refuses, throws with its fix).
 */
export async function createTestKit<Names extends DemoPersonName = DemoPersonName, App extends ParleyApp = ParleyApp>(
  options: TestKitOptions<Names, App>,
): Promise<TestKit<Names>> {
  const { app } = options;
  // Checked as the registry checks it at start; its migrations are applied here unless the test
  // databases have them already (an app registered in parley.config.ts).
  const applied = new Set(parleyMigrations().map((set) => set.table));
  const registry = createRegistry({ apps: [app] });
  const migrations = registry.migrations().filter((set) => !applied.has(set.table));
  const database = await createTestDatabase(options.database ?? "pglite");
  try {
    if (migrations.length > 0) await migrateDatabase(database, migrations);
    const people = await createDemoPeople(database.db, options.people ?? (DEMO_PERSON_NAMES as readonly Names[]), options.groups ?? false);
    const clock = options.clock ?? runningClock();
    const entries = new Map<string, WorkflowEntry>(app.workflows.map((entry) => [entry.workflow.name, entry]));
    const factories = new Map<string, () => LanguageModelV3>();
    for (const scripted of [...app.workflows.map((entry) => entry.scripted), options.models]) {
      for (const [agent, factory] of Object.entries(scripted ?? {})) if (factory) factories.set(agent, factory);
    }

    function build(extra: Partial<Omit<RuntimeOptions, "db" | "workflows">> = {}) {
      const models = new Map([...factories].map(([agent, factory]) => [agent, factory()]));
      const runtime = createRuntime({
        db: database.db,
        // The registry's list, checked when it was built, so a restart checks nothing again.
        workflows: registry.workflows,
        now: clock.now,
        resolveModel(agent) {
          const model = models.get(agent.name);
          if (!model) throw new Error(`Agent "${agent.name}" has no scripted model: give its workflow's entry \`scripted: { ${agent.name}: … }\`, or the kit \`models\`.`);
          return model;
        },
        ...options.runtime,
        ...extra,
      });
      return { runtime, models };
    }
    const { runtime, models } = build();
    const operator = Object.values<User>(people).find((person) => person.roles.includes("operator"));

    function questionIdOf(question: QuestionRow | string): string {
      return typeof question === "string" ? question : question.id;
    }

    return {
      database,
      db: database.db,
      runtime,
      models,
      clock,
      people,
      async start(workflow, form, startOptions = {}) {
        const name = typeof workflow === "string" ? workflow : workflow.name;
        const entry = entries.get(name);
        if (!entry) throw new Error(`App "${app.name}" has no workflow "${name}": it has ${[...entries.keys()].join(", ") || "none"}.`);
        const start = entry.start;
        if (!start) throw new Error(`Workflow "${name}" has no start form (its entry's \`start\`): start it as its own code does.`);
        const by = startOptions.by ?? operator;
        if (!by) throw new Error("Nobody of the kit's people is an operator: pass `by`, or create Omar or Lee.");
        const { schema, spec } = await startFormOf(database.db, entry);
        const verdict = await validateFormAnswer(schema, form, spec);
        if (!verdict.ok) return { status: "refused", fieldErrors: verdict.fieldErrors, formErrors: verdict.formErrors };
        const { taskId } = await start.run({ db: database.db, runtime, by: by.id, now: clock.now() }, verdict.value);
        return { status: "started", taskId };
      },
      as(person) {
        const questions = () => runtime.questionsFor(person.id);
        return {
          person,
          questions,
          async nextQuestion() {
            const [question] = await questions();
            if (!question) throw new Error(`${person.name} has no open question.`);
            return question;
          },
          answer: (question, answer) =>
            runtime.submitAnswer({
              questionId: questionIdOf(question),
              by: person.id,
              answer: { text: typeof answer === "string" ? { [AGENT_ANSWER_FIELD]: answer } : answer },
            }),
          decline: (question, note) => runtime.decline({ questionId: questionIdOf(question), by: person.id, note: note ?? null }),
        };
      },
      run: (taskId) => findRun(database.db, taskId),
      drain: () => runtime.drain(),
      tick: () => runtime.tick(),
      restart: build,
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Creates the named demo people (no passwords: nobody signs in to a test) and, when asked, the demo groups of them. */
async function createDemoPeople<Names extends DemoPersonName>(db: Db, names: readonly Names[], groups: boolean): Promise<Record<Names, User>> {
  const emailOf = (name: DemoPersonName) => `${name}@parley.test`;
  const rows = names.map((name) => {
    const demo = DEMO_USERS.find((user) => user.email === emailOf(name));
    if (!demo) throw new Error(`There is no demo person "${name}".`);
    return { email: demo.email, name: demo.name, roles: [...demo.roles] };
  });
  const created = await insertUsersIfAbsent(db, rows);
  if (groups) await seedGroups(db, DEMO_GROUPS);
  const people = {} as Record<Names, User>;
  for (const name of names) {
    const user = created.find((row) => row.email === emailOf(name));
    if (!user) throw new Error(`The demo person "${name}" was already in the test's database.`);
    people[name] = user;
  }
  return people;
}
