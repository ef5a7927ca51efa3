import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { Duration } from "./duration";
import type { Escalation } from "./escalation";
import type { Recipient } from "./recipients";

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

/** A declared workflow: named states over a tracked task, driven by events. */
export interface Workflow<S extends string = string, E extends EventSchemas = EventSchemas, Item = unknown> {
  readonly name: string;
  readonly tracks: TrackedTable;
  readonly initial: S;
  readonly events: E;
  readonly states: { readonly [K in S]: StateDefinition<S, E, Item> };
}

/**
 * The state a parked run waits in (an agent's loop parks in `Waiting`): it waits for answers, so it
 * is never terminal — `Waiting: { terminal: … }` does not compile.
 */
export interface ParkState {
  readonly terminal?: undefined;
}

/** What `defineWorkflow` takes. */
export interface WorkflowDefinition<S extends string, E extends EventSchemas, T extends TrackedTable> {
  name: string;
  tracks: T;
  initial: NoInfer<S>;
  events?: E;
  states: { [K in S]: StateDefinition<NoInfer<S>, E, T["$inferSelect"]> } & { readonly Waiting?: ParkState };
}

/**
 * Declares a workflow. State names are inferred from `states`; `goto` and `initial` accept only
 * those; the park state (`Waiting`) cannot be terminal. What types cannot see is checked when a
 * runtime starts with it (`createRuntime`).
 */
export function defineWorkflow<S extends string, E extends EventSchemas = Record<never, z.ZodType>, T extends TrackedTable = TrackedTable>(
  definition: WorkflowDefinition<S, E, T>,
): Workflow<S, E, T["$inferSelect"]> {
  return {
    name: definition.name,
    tracks: definition.tracks,
    initial: definition.initial,
    events: (definition.events ?? {}) as E,
    states: definition.states,
  };
}

/** A workflow seen without its types, as the runtime handles it. */
export interface AnyWorkflow {
  readonly name: string;
  readonly tracks: TrackedTable;
  readonly initial: string;
  readonly events: EventSchemas;
  readonly states: { readonly [state: string]: StateDefinition<string, EventSchemas, unknown> | undefined };
}
