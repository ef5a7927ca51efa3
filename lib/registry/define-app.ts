import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { Role } from "@/db/schema";
import type { AgentNamesOf, RegisteredWorkflow, Runtime } from "@/lib/runtime";

/** What a task is about, in a line: inbox rows, the run page's title, the runs list and notices read it. */
export interface TaskSubject {
  /** e.g. "Claim: Team dinner after the launch". */
  title: string;
  /** e.g. "412.80 USD at Luigi's Trattoria on 2026-11-20". */
  summary?: string;
  /** Who started it (a user id), where the task records that. */
  startedBy?: string | null;
  /** Who asks, where it is not the workflow itself (an API ask: its key's name); screens show it as the asker. */
  askedBy?: string;
}

/** One fact shown beside a question or on a run page. */
export interface ContextFact {
  label: string;
  /** Shown as text (never as markup); empty shows "none given". */
  value: string;
}

/** The panel shown beside a question and on the run page: a heading and key/value facts. */
export interface ContextPanel {
  title: string;
  facts: readonly ContextFact[];
}

/** A person a start form may offer (someone with the assignee role). */
export interface StartPerson {
  id: string;
  name: string;
  away: boolean;
  /** Who answers in their place while they are away, when they named someone who is not away. */
  delegateName?: string | null;
}

/** What a start form's schema may depend on: the people who can be asked. */
export interface StartFormContext {
  people: readonly StartPerson[];
}

/** What starting a run is handed, besides the input the form's schema accepted. */
export interface StartContext {
  db: Db;
  runtime: Runtime;
  /** The signed-in person starting it (a user id). */
  by: string;
  now: Date;
}

/**
 * How an operator starts a workflow: the start input as a zod object (one question per field, the
 * same generated form the inbox uses), who may start it, and what starting does. `run` creates the
 * tracked item and starts its run in one transaction, and returns the task's id.
 */
export interface StartDefinition<Schema extends z.ZodObject = z.ZodObject> {
  /** The form: a schema, or one built from the people who can be asked (a person choice). */
  input: Schema | ((context: StartFormContext) => Schema);
  /** Who may start it; operators by default. */
  roles?: readonly Role[];
  /** The submit button's text; "Start" by default. */
  submitLabel?: string;
  run(context: StartContext, input: z.output<Schema>): Promise<{ taskId: string }>;
}

/** Starting another run over an ended one's item ("Review again"). */
export interface AgainDefinition {
  /** The button's text, e.g. "Review again". */
  label: string;
  /** Who may; operators by default. */
  roles?: readonly Role[];
  /** Starts it (refusing with an AppError while another run of the item is open); returns the new task's id. */
  run(context: StartContext, taskId: string): Promise<{ taskId: string }>;
}

/**
 * The scripted models of a workflow's agents, by agent name: the names are those of its `agents`, so
 * `scripted: { ReleaseChecker: createReleaseCheckerModel }` compiles for a workflow that names
 * `agents: { ReleaseChecker }`, and a name it does not (a typo, another workflow's agent) does not.
 */
export type ScriptedModels<W extends RegisteredWorkflow = RegisteredWorkflow> = { readonly [Name in AgentNamesOf<W>]?: () => LanguageModelV3 };

/**
 * One workflow as the registry names it: the runtime's definition plus what the screens need of it.
 * Typed by its workflow (`defineApp` infers each entry's), so `scripted` takes the names of its agents.
 */
export interface WorkflowEntry<W extends RegisteredWorkflow = RegisteredWorkflow> {
  workflow: W;
  /** The workflow's name for people, e.g. "Expense review". */
  label: string;
  /** One sentence on what it does, for the start list. */
  description?: string;
  /** Describes tasks in a line each (one query for many). Tasks it does not know are left out. */
  describe(db: Db, taskIds: readonly string[]): Promise<Map<string, TaskSubject>>;
  /** The facts shown beside its questions and on its run pages. */
  context?(db: Db, taskId: string): Promise<ContextPanel | undefined>;
  /** How operators start it; absent: it is started by code only (an API ask, another workflow). */
  start?: StartDefinition<z.ZodObject>;
  again?: AgainDefinition;
  /** In demo mode (no model configured) and in tests, the scripted model each of its agents runs on, by the agent's name in `agents`. */
  scripted?: ScriptedModels<W>;
}

/** What a demo seeding hook is handed on the first start of a demo database. */
export interface DemoContext {
  db: Db;
  runtime: Runtime;
  /** The demo people by email (ada@, omar@, sam@, priya@, lee@parley.test), with their ids. */
  people: ReadonlyMap<string, { id: string }>;
}

/** An app: workflows a team registers together, with their own tables and migrations. */
export interface ParleyApp {
  /** A short, stable name (`expense-review`): its migrations are recorded under it. */
  name: string;
  workflows: readonly WorkflowEntry[];
  /**
   * The app's own migrations folder (drizzle-kit's output: SQL files and `meta/_journal.json`),
   * applied after the platform's, on PGlite and PostgreSQL, recorded apart from them.
   */
  migrations?: string;
  /** In demo mode, on a database's first start: start demo runs. Returns a line for the console. */
  seedDemo?(context: DemoContext): Promise<string | undefined>;
}

/** An app as `defineApp` takes it: each workflow entry typed by its own workflow. */
export interface AppDefinition<Ws extends readonly RegisteredWorkflow[]> extends Omit<ParleyApp, "workflows"> {
  workflows: { readonly [K in keyof Ws]: WorkflowEntry<Ws[K]> };
}

/**
 * Declares an app for the registry. Each entry is typed by its workflow (a `scripted` name its
 * workflow's `agents` do not have does not compile); the app's agents are its workflows' — the
 * registry finds them there and checks them when it is built.
 */
export function defineApp<const Ws extends readonly RegisteredWorkflow[]>(app: AppDefinition<Ws>): AppDefinition<Ws> {
  return app;
}

/** The names of an app's agents (those its workflows name), for what is keyed by them: the test kit's `models`. */
export type AppAgentNames<App extends ParleyApp> = App["workflows"][number] extends WorkflowEntry<infer W> ? AgentNamesOf<W> : string;

/** Declares a workflow's start definition, typing `run`'s input from the schema. */
export function defineStart<Schema extends z.ZodObject>(start: StartDefinition<Schema>): StartDefinition<z.ZodObject> {
  return start as unknown as StartDefinition<z.ZodObject>;
}

/** The registry's file: the apps this Parley runs. */
export interface ParleyConfig {
  apps: readonly ParleyApp[];
}

/** Declares the registry (`parley.config.ts`'s default export). */
export function defineParley(config: ParleyConfig): ParleyConfig {
  return config;
}
