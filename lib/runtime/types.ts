/**
 * The authoring vocabulary: every type a workflow or agent author writes against — workflows, states
 * and transitions, agents and their replies, a person's answer and why nothing came, recipients,
 * durations and escalation chains. Types only, and it imports nothing of lib/runtime, so every module
 * of the runtime can use it without a cycle (the lint counts type-only imports). The values that go
 * with these types (defineWorkflow, defineAgent, person, group, answerOf…) stay in their own modules;
 * lib/runtime/index.ts exports both.
 */
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { EscalationAction, NothingReason } from "@/db/schema";

export type { EscalationAction, NothingReason };

// — Workflows: states, transitions, the handle a state's code is given

/** A task table a workflow drives: rows with a uuid `id` and a text `status`. */
export type TrackedTable = PgTable & { id: PgColumn; status: PgColumn };

/** The zod schemas of the events a workflow can receive, by event name. */
export type EventSchemas = Record<string, z.ZodType>;

/** Where a handler sends its workflow next; only {@link RunHandle.goto} makes one. */
export interface Transition<S extends string> {
  readonly kind: "goto";
  readonly to: S;
}

/** What a state's code is handed: the task, the database, the workflow's events, and the way out (`goto`). */
export interface RunHandle<S extends string, Item, E extends EventSchemas = EventSchemas> {
  /** The tracked task row. */
  readonly item: Item;
  readonly taskId: string;
  readonly workflow: string;
  readonly state: S;
  readonly db: Db;
  /** The runtime's clock at the start of this job. */
  readonly now: Date;
  /** The workflow's declared events, by name (`person.ask(run, "<event>", …)` names one of them). */
  readonly events: E;
  /** Moves to another declared state; a name that is not declared does not compile. */
  goto(state: S): Transition<S>;
}

/** Who may deposit into a slot, and the label they go by. */
interface SubscriptionParties<S extends string, Item, E extends EventSchemas> {
  /** The role the answerer plays, for screens (e.g. "Filer"). */
  as?: string;
  /** The one person asked first (a user id), if any. */
  assignee?: (run: RunHandle<S, Item, E>) => string | null | undefined | Promise<string | null | undefined>;
  /** Everyone who may answer: user ids, and groups (`group("finance")`) whose members may. */
  candidates?: (run: RunHandle<S, Item, E>) => readonly Recipient[] | Promise<readonly Recipient[]>;
}

/**
 * A state's wait for one event: who may deposit it, how long they get, what happens on the way
 * (`escalate`) and if nobody does. A clock (`within`) needs an `unfinished` branch, or an expired run
 * would sit nowhere; an escalation chain needs a clock, whose fractions its steps are.
 */
export type Subscription<S extends string, Item, E extends EventSchemas = EventSchemas> = SubscriptionParties<S, Item, E> &
  (
    | {
        /** The SLA: the slot is due this long after it opens. */
        within: Duration;
        /** Runs once when the slot is still open at its due time. */
        unfinished: (run: RunHandle<S, Item, E>) => Transition<S> | undefined | Promise<Transition<S> | undefined>;
        /**
         * Steps at fractions of the SLA, fired by the sweep once each while the slot is open:
         * `[{ at: "50%", remind: true }, { at: "80%", addGroup: "finance" }]`. The deadline itself is `unfinished`.
         */
        escalate?: Escalation;
      }
    | { within?: undefined; unfinished?: undefined; escalate?: undefined }
  );

/** Code that runs in a state; returning nothing stays put. */
export type StateHandler<S extends string, Item, Args extends unknown[] = [], E extends EventSchemas = EventSchemas> = (
  run: RunHandle<S, Item, E>,
  ...args: Args
) => Transition<S> | undefined | Promise<Transition<S> | undefined>;

/** How a terminal state ends the run. */
export type TerminalKind = "success" | "error";

/** One state of a workflow. A state is terminal, or it has an `enter` body and/or waits for events. */
export interface StateDefinition<S extends string, E extends EventSchemas, Item> {
  /** A terminal state ends the run, as a success or with an error message. */
  terminal?: TerminalKind;
  message?: string;
  /** What screens call this state ("Waiting for the approver"); without one, its name in words ("Awaiting approval"). */
  label?: string;
  enter?: StateHandler<S, Item, [], E>;
  subscribe?: { [K in keyof E]?: Subscription<S, Item, E> };
  on?: { [K in keyof E]?: StateHandler<S, Item, [payload: z.output<E[K]>], E> };
}

/** A declared workflow: named states over a tracked task, driven by events, run by the agents it names. */
export interface Workflow<S extends string = string, E extends EventSchemas = EventSchemas, Item = unknown, A extends WorkflowAgents = WorkflowAgents> {
  readonly name: string;
  readonly tracks: TrackedTable;
  readonly initial: S;
  readonly events: E;
  readonly states: { readonly [K in S]: StateDefinition<S, E, Item> };
  /** The agents its state code calls (`agent.ask`, `agent.answer`), each under its name: the registry and a runtime find their agents here. */
  readonly agents: A;
  /** Its start input's schema, when the task it tracks keeps one (`tracks: tasks`): it types `run.item.input`. */
  readonly input?: StartInputSchema<z.ZodType> | undefined;
  /** The type of `run.item` in its handlers: a mark for types ({@link ItemOf}), never set. */
  readonly "~item"?: Item;
}

/** A start input's schema: a zod schema of an object (one question per field on the start form). */
export type StartInput = z.ZodType<Record<string, unknown>>;

/**
 * A start input's schema as a workflow declares it: a schema, or a function of the start form's
 * context (the people who can be chosen) that makes one (lib/registry's `StartFormContext`; the
 * runtime never calls it).
 */
export type StartInputSchema<I extends z.ZodType> = I | ((context: never) => I);

/** The tracked row of a table, with its `input` typed as the start schema's output when the workflow declares one. */
export type WorkflowItem<T extends TrackedTable, I extends z.ZodType> = [I] extends [never] ? T["$inferSelect"] : Omit<T["$inferSelect"], "input"> & { input: z.output<I> };

/** `run.item`'s type in a workflow's handlers. */
export type ItemOf<W> = W extends { readonly "~item"?: infer Item } ? Item : never;

/** A workflow's start input (`run.item.input`): what its start schema gives, or the tracked row's `input` column. */
export type StartInputOf<W> = ItemOf<W> extends { input: infer Input } ? Input : never;

/**
 * The agents a workflow's state code calls, each under its name: `agents: { ReleaseChecker }`. Keyed
 * by name so the names are types (what is keyed by agent, like a registry entry's `scripted`, refuses
 * a name its workflow does not name); the check at start holds each key to its agent's name.
 */
export type WorkflowAgents = { readonly [name: string]: Agent };

/** The names of the agents a workflow names (`"ReleaseChecker"`): the keys its registry entry's `scripted` takes. */
export type AgentNamesOf<W> = W extends { readonly agents?: infer A } ? keyof NonNullable<A> & string : never;

/**
 * The state a parked run waits in (an agent's loop parks in `Waiting`): it waits for answers, so it
 * is never terminal — `Waiting: { terminal: … }` does not compile.
 */
export interface ParkState {
  readonly terminal?: undefined;
}

/** What `defineWorkflow` takes. */
export interface WorkflowDefinition<S extends string, E extends EventSchemas, T extends TrackedTable, A extends WorkflowAgents = Record<never, Agent>, I extends StartInput = never> {
  name: string;
  tracks: T;
  /**
   * The start input's schema (the registry entry's start form, or a function of its context), for a
   * workflow over a table that keeps the input (`tracks: tasks`): `run.item.input` is its output.
   */
  input?: "input" extends keyof T["$inferSelect"] ? StartInputSchema<I> : never;
  /**
   * The agents its state code calls, by reference, each under its name (`agents: { ReleaseChecker }`):
   * the registry and the runtime find every agent through its workflows. Declare the agent first
   * (its `loop` is a function, so it may name this workflow before it exists).
   */
  agents?: A;
  initial: NoInfer<S>;
  events?: E;
  states: { [K in S]: StateDefinition<NoInfer<S>, E, WorkflowItem<T, I>> } & { readonly Waiting?: ParkState };
}

/** A workflow seen without its types, as the runtime handles it. */
export interface AnyWorkflow {
  readonly name: string;
  readonly tracks: TrackedTable;
  readonly initial: string;
  readonly events: EventSchemas;
  readonly states: { readonly [state: string]: StateDefinition<string, EventSchemas, unknown> | undefined };
  /** The agents it names, by name; absent on a workflow written as plain data. */
  readonly agents?: WorkflowAgents;
}

// — Durations and escalation chains

/** A span of time as people write it: `{ days: 2 }`, `{ hours: 4, minutes: 30 }`. */
export interface Duration {
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
  milliseconds?: number;
}

/** A moment of the SLA, as a percentage of the time from opening to the deadline: `"50%"`. */
export type SlaPercent = `${number}%`;

/**
 * One step of an escalation chain: at a moment of the SLA, remind whoever the wait is for, or add a
 * group (by name) whose members may then answer too. Exactly one of `remind` and `addGroup`.
 */
export type EscalationStep =
  | { readonly at: SlaPercent; readonly remind: true; readonly addGroup?: undefined }
  | { readonly at: SlaPercent; readonly addGroup: string; readonly remind?: undefined };

/**
 * An escalation chain: `[{ at: "50%", remind: true }, { at: "80%", addGroup: "finance" }]`. Its
 * steps are stored with the slot as it opens and fired by the SLA sweep, each once; the deadline
 * itself is the slot's expiry, as without a chain.
 */
export type Escalation = readonly EscalationStep[];

// — Who a question is put to

/** A group asked as a whole: any member may take the question. */
export interface GroupRecipient {
  group: string;
}

/** Who a question can be put to: a person (their user id) or a group by name. */
export type Recipient = string | GroupRecipient;

// — Agents

/** What an agent keeps between calls. Only a persistent agent can ask a person: it must come back. */
export type AgentMemory = "persistent" | "none";

/** What the runtime deposits when a person answers an agent's ask: the words, and which ask they answer. */
export interface AgentAnswer {
  readonly text: string;
  /** The ask answered (its question id); optional while only one is open. */
  readonly questionId?: string | undefined;
}

/** An event that takes a person's answer to an agent's ask: what {@link agentAnswered} returns. */
export type AgentAnsweredEvent = z.ZodType<AgentAnswer>;

/**
 * A workflow an agent can use as its loop: it parks in a `Waiting` state (which `defineWorkflow`
 * does not let be terminal), and declares the `Answered` event with the runtime's agent-answer
 * shape ({@link agentAnswered}). A workflow without either does not fit this type, so
 * `loop: () => it` does not compile.
 */
export interface LoopWorkflow {
  readonly name: string;
  readonly events: { readonly Answered: AgentAnsweredEvent };
  readonly states: { readonly Waiting: unknown };
}

/** The task an agent works on: anything with the tracked row's id. */
export interface TaskReference {
  readonly id: string;
}

interface AgentBasics {
  name: string;
  /** One line on what the agent is for, for screens. */
  purpose?: string;
  /** The system prompt. */
  prompt: string;
  /** Who the agent acts as, where that matters. */
  principal?: { email: string };
  /** Tools of the agent's own (with `execute`). */
  tools?: ToolSet;
  /** A model for this agent; otherwise the runtime's `resolveModel` decides. */
  model?: LanguageModel;
}

/**
 * What `defineAgent` takes. An agent with a `loop` asks people, so it must come back to their
 * answers: a loop without `memory: "persistent"` does not compile.
 */
export type AgentDefinition = AgentBasics &
  (
    | {
        memory: "persistent";
        /** The workflow the agent runs in; having one is what offers the agent the ask tool. */
        loop?: () => LoopWorkflow;
      }
    | { memory: AgentMemory; loop?: undefined }
  );

/** A declared agent. `ask` and `answer` run inside a workflow's state code. */
export type Agent = Readonly<AgentDefinition> & {
  /** Gives the agent these turns; it replies, or asks a person and parks. */
  ask(task: TaskReference, turns: readonly ModelMessage[]): Promise<AgentReply>;
  /**
   * Writes a person's answer as the result of the agent's pending question (the only one, or the
   * one named) and, once no question is pending, lets the agent carry on.
   */
  answer(task: TaskReference, text: string, options?: { questionId?: string }): Promise<AgentReply>;
};

// — What an agent replies

/** A question an agent put to a person, in its own words. */
export interface AskedQuestion {
  /** The platform's question record id (the ask). */
  readonly id: string;
  /** The model's tool call this question is; the answer becomes its result. */
  readonly toolCallId: string;
  readonly agent: string;
  readonly text: string;
  readonly options?: readonly string[];
}

/**
 * What `agent.ask` and `agent.answer` both return. Callers branch on `parked`: a parked reply
 * means the work is waiting for a person, and the workflow must go somewhere it can wait.
 */
export type AgentReply =
  | {
      readonly parked: true;
      /** The first of `questions`; most steps ask one. */
      readonly question: AskedQuestion;
      /** Every question still unanswered, oldest first. */
      readonly questions: readonly AskedQuestion[];
      /** Any text the model wrote beside its question. */
      readonly text: string;
    }
  | { readonly parked: false; readonly text: string };

// — A person's answer

/**
 * What a flow gets back from a person: the typed value, or nothing with its reason — one branch
 * for every reason nobody answered (attempts refused, away, nobody at the terminal, SLA expired,
 * declined by the person — with their note).
 */
export type PersonAnswer<Value> =
  | { readonly ok: true; readonly value: Value }
  /** `note`: what the person who declined (reason `declined`) wrote for the asker, when they wrote something. */
  | { readonly ok: false; readonly reason: NothingReason; readonly note?: string };

/** The events of `E` declared with {@link answerOf}: the names `person.ask` accepts. */
export type QuestionnaireEvent<E extends EventSchemas> = {
  [K in keyof E & string]: z.output<E[K]> extends PersonAnswer<unknown> ? K : never;
}[keyof E & string];

/** How a flow puts a questionnaire to a person. */
export interface AskPersonOptions {
  /**
   * Who is asked: a user id (they alone may answer, as the assignee), a group (`group("finance")`:
   * any member may claim and answer), or several of these (candidates: any one may answer). Someone
   * away is replaced by the delegate they named, or left out; someone deactivated is left out; when
   * nobody is left, the flow gets nothing (`away`, or `unavailable`).
   */
  to: Recipient | readonly Recipient[];
  /** A title for screens; defaults to the questionnaire schema's `.meta({ title })`. */
  title?: string;
  /** The SLA: the question expires this long after it is asked, and the flow gets nothing (`expired`). */
  within?: Duration;
  /** The SLA as a moment, instead of `within`. */
  dueAt?: Date | null;
  /**
   * Steps at fractions of the SLA (`within` or `dueAt`, which a chain needs), fired by the sweep once
   * each while the question is open: `[{ at: "50%", remind: true }, { at: "80%", addGroup: "finance" }]`.
   * At the deadline the flow gets nothing (`expired`), as without a chain.
   */
  escalate?: Escalation;
  /** Refused submissions allowed before the flow gets nothing (`refused`); default 3. */
  attempts?: number;
  /** For an event declared with {@link answerOfGivenSchema}: the JSON Schema (an object) the answer must meet. */
  responseSchema?: Record<string, unknown>;
  /** The id the question record takes, for an asker that has handed out its address already; a new one by default. */
  questionId?: string;
  /**
   * Who asks, when it is not the flow itself (an API ask: its key's name). Recorded as the wait's
   * asker, so the SLA page counts the wait by it as it does an agent's.
   */
  askedBy?: string;
}

/** What asking did: the question is open (the answer arrives in the state's handler) or already closed with nothing. */
export type PersonAsked =
  | { readonly status: "asked"; readonly questionId: string; readonly slotId: string }
  | { readonly status: "nothing"; readonly questionId: string; readonly reason: NothingReason };
