import { Command } from "@langchain/langgraph";
import type { ParleyClient } from "../parley-client.js";
import type { Ask } from "../types.js";
import { type ParleyEvent, verifyWebhook, type VerifyWebhookInput } from "../webhooks/index.js";
import type { PersonAnswer } from "./ask-person.js";
import { askInputOf, idempotencyKeyOf, interruptLinkOf, metadataWithLink, type PendingInterrupt, type PendingWrite, pendingInterrupts, resumeValueOf } from "./interrupt-asks.js";

/** The LangGraph config of one thread, as `invoke` and `getState` take it. */
export interface ThreadConfig {
  configurable: { thread_id: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The checkpointer calls the adapter makes: its `getTuple` (any LangGraph checkpointer has it). */
export interface InterruptCheckpointer {
  getTuple(config: ThreadConfig): Promise<{ pendingWrites?: PendingWrite[] } | undefined>;
}

/**
 * The compiled graph calls the adapter makes: a `StateGraph(…).compile({ checkpointer })` is one.
 * Written as these few members so the adapter takes any graph's generics.
 */
export interface InterruptibleGraph {
  invoke(input: Command<unknown, never, never> | null, config: ThreadConfig): Promise<unknown>;
  getState(config: ThreadConfig): Promise<{ values: unknown; next: readonly string[]; tasks: readonly unknown[] }>;
  checkpointer?: unknown;
}

/** What {@link createParleyInterrupts} needs. */
export interface ParleyInterruptsOptions {
  /** The compiled graph, with a checkpointer that outlives your process (PostgresSaver) if threads must survive a restart. */
  graph: InterruptibleGraph;
  /** The Parley client the asks are made with. */
  parley: ParleyClient;
  /** The graph's checkpointer, when it is not the one `graph` was compiled with. */
  checkpointer?: InterruptCheckpointer;
  /**
   * Names the graph in each ask's metadata and Idempotency-Key (letters, digits, `.`, `_`, `-`);
   * `"graph"` by default. Give each graph sharing one agent key and webhook receiver its own name:
   * each resumes only the asks it made.
   */
  name?: string;
  /** Who is asked when an interrupt's question names nobody (`to`). */
  to?: string | readonly string[];
  /** Where Parley posts each ask's outcome (`ask.answered`, `ask.nothing`); hand the requests to {@link ParleyInterrupts.handleWebhook}. */
  callbackUrl?: string;
  /** The agent key's `whsec_…` webhook secret (several while rotating), for {@link ParleyInterrupts.handleWebhook}. */
  webhookSecret?: string | readonly string[];
}

/** An ask made (or found again) for one pending interrupt. */
export interface InterruptAsk {
  interruptId: string;
  ask: Ask;
  /** False when the ask had been made before (by an earlier call, or another process). */
  created: boolean;
}

/** Where a thread's pending interrupts stand with Parley. */
export interface PendingAsks {
  /** One ask per pending interrupt that is a question for a person. */
  asks: InterruptAsk[];
  /** Pending interrupts that are not questions for a person (no title, or nobody to ask): resume them yourself. */
  unasked: PendingInterrupt[];
}

/**
 * What a resume did, a union on `status`:
 * - `resumed`: the thread ran on with the answer; `result` is what `invoke` returned, `asks` the asks
 *   for the interrupts it is paused on now (made already);
 * - `not-pending`: the interrupt is not waiting any more — this answer was delivered before, or the
 *   thread moved on — so nothing ran; `asks` are the thread's current ones (made if missing);
 * - `ignored`: nothing to do — the ask is still `open`, it is `not-this-graph`'s (no link, another
 *   graph's name), or the event is `not-an-ask-event` (`question.*`).
 */
export type ResumeOutcome =
  | ({ status: "resumed"; threadId: string; interruptId: string; answer: PersonAnswer<unknown>; result: unknown } & PendingAsks)
  | ({ status: "not-pending"; threadId: string; interruptId: string } & PendingAsks)
  | { status: "ignored"; reason: "open" | "not-this-graph" | "not-an-ask-event" };

/** A thread, by its id or by its config. */
export type ThreadReference = string | { configurable?: { thread_id?: unknown } };

/** What {@link ParleyInterrupts.resumeWhenAnswered} ends with. */
export interface ThreadSettled {
  /** The thread's state values now (`getState().values`). */
  values: unknown;
  /** Interrupts still pending that are not questions for a person; empty when the graph ran to its end. */
  unasked: PendingInterrupt[];
}

/** A graph's interrupts as Parley asks, and the resumes that bring the answers back. */
export interface ParleyInterrupts {
  /**
   * Makes one Parley ask per interrupt the thread is paused on — call it after `invoke` returns with
   * `__interrupt__`. Safe to call again at any time: each interrupt's ask has an Idempotency-Key from
   * the graph's name, the thread and the interrupt id, so it is made once, and found again after.
   * Each ask carries the thread and interrupt ids in its metadata (`langgraph`), so its webhook or its
   * id alone is enough to resume. Parley's refusals (an unknown person, a schema it cannot ask) throw
   * `ParleyApiError`.
   */
  askPending(thread: ThreadReference, options?: { signal?: AbortSignal }): Promise<PendingAsks>;
  /**
   * Resumes the thread an ask belongs to with its outcome, as `Command({ resume: { [interruptId]: answer } })`
   * — `{ ok: true, value }`, or `{ ok: false, reason, note? }` when nobody answered — if that interrupt
   * is still pending; the thread's other interrupts stay pending. Then asks for whatever the thread
   * is paused on next. A repeat (a webhook delivered twice, a poll that raced it) resumes nothing:
   * `not-pending`. Resumes of one thread run one at a time within this process.
   */
  resume(ask: Ask): Promise<ResumeOutcome>;
  /** {@link resume} from an already verified webhook event: `ask.answered` and `ask.nothing` resume, others are ignored. */
  resumeFromEvent(event: ParleyEvent): Promise<ResumeOutcome>;
  /**
   * Verifies a webhook request with `webhookSecret` (`verifyWebhook` from `@parleyhq/client/webhooks`)
   * and resumes from its event. Answer 2xx once it returns: Parley sends it again after a failure, and
   * a repeat is harmless. A bad signature or an old timestamp throws `ParleyWebhookError` (answer 4xx).
   */
  handleWebhook(request: Pick<VerifyWebhookInput, "headers" | "body" | "toleranceSeconds">): Promise<ResumeOutcome>;
  /**
   * Without webhooks: asks for the thread's pending interrupts, long-polls their asks and resumes each
   * as its answer arrives — in whatever order people answer — until the thread is paused on no
   * question for a person (it ran to its end, or waits on `unasked` interrupts). Rides out Parley
   * restarts as the client does; aborting `signal` stops waiting and leaves the asks open.
   */
  resumeWhenAnswered(thread: ThreadReference, options?: { signal?: AbortSignal }): Promise<ThreadSettled>;
}

const GRAPH_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Connects a compiled LangGraph graph to Parley: its interrupts become asks for people, and their
 * answers — by webhook or by long-poll — resume the thread.
 *
 * ```ts
 * const interrupts = createParleyInterrupts({ graph, parley: createParleyClient({ baseUrl, apiKey }) });
 * const config = { configurable: { thread_id: "deploy-4.2" } };
 * await graph.invoke({ release: "4.2" }, config);       // a node awaits askPerson(…): the thread pauses
 * const { values } = await interrupts.resumeWhenAnswered(config);
 * ```
 *
 * Nothing is kept in memory between calls: the checkpointer holds the thread, Parley holds the asks,
 * and each ask's metadata links the two — so after a restart of either, a new instance carries on.
 */
export function createParleyInterrupts(options: ParleyInterruptsOptions): ParleyInterrupts {
  const { graph, parley } = options;
  const name = options.name ?? "graph";
  if (!GRAPH_NAME.test(name)) throw new TypeError("name is 1–64 letters, digits, '.', '_' or '-'.");
  const checkpointer = options.checkpointer ?? checkpointerOf(graph);
  // Resumes of one thread are queued here: a resume checks that its interrupt is pending and then runs
  // the graph, and two resumes of one thread interleaved would both see it pending.
  const threadQueues = new Map<string, Promise<unknown>>();

  function inThreadQueue<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const previous = threadQueues.get(threadId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    threadQueues.set(threadId, settled);
    void settled.then(() => {
      if (threadQueues.get(threadId) === settled) threadQueues.delete(threadId);
    });
    return next;
  }

  async function pendingOf(threadId: string): Promise<PendingInterrupt[]> {
    const tuple = await checkpointer.getTuple(configOf(threadId));
    return pendingInterrupts(tuple?.pendingWrites ?? []);
  }

  /**
   * Runs the thread on when its step has every task finished and no interrupt pending, yet did not go
   * on: two resumes of one step that ran at once in two processes each saw the other branch still
   * interrupted. `invoke(null)` takes the step's writes and carries on. Undefined when not stalled.
   */
  async function carryOnIfStalled(threadId: string): Promise<unknown> {
    const config = configOf(threadId);
    const state = await graph.getState(config);
    if (state.tasks.length === 0 || state.next.length > 0 || (await pendingOf(threadId)).length > 0) return undefined;
    return graph.invoke(null, config);
  }

  async function askFor(threadId: string, pending: PendingInterrupt[], signal: AbortSignal | undefined): Promise<PendingAsks> {
    const asks: InterruptAsk[] = [];
    const unasked: PendingInterrupt[] = [];
    for (const interrupt of pending) {
      const input = askInputOf(interrupt, options.to);
      if (!input) {
        unasked.push(interrupt);
        continue;
      }
      const link = { graph: name, thread_id: threadId, interrupt_id: interrupt.id };
      const made = await parley.createAsk(
        { ...input, metadata: metadataWithLink(input.metadata, link), ...(options.callbackUrl !== undefined ? { callbackUrl: options.callbackUrl } : {}) },
        { idempotencyKey: await idempotencyKeyOf(link), ...(signal ? { signal } : {}) },
      );
      asks.push({ interruptId: interrupt.id, ask: made.ask, created: made.created });
    }
    return { asks, unasked };
  }

  const interrupts: ParleyInterrupts = {
    async askPending(thread, askOptions = {}) {
      const threadId = threadIdOf(thread);
      return askFor(threadId, await pendingOf(threadId), askOptions.signal);
    },

    async resume(ask) {
      const link = interruptLinkOf(ask);
      if (!link || link.graph !== name) return { status: "ignored", reason: "not-this-graph" };
      const answer = resumeValueOf(ask);
      if (!answer) return { status: "ignored", reason: "open" };
      const threadId = link.thread_id;
      const interruptId = link.interrupt_id;
      return inThreadQueue(threadId, async (): Promise<ResumeOutcome> => {
        if (!(await pendingOf(threadId)).some((interrupt) => interrupt.id === interruptId)) {
          // Never resume an interrupt that is not pending: LangGraph would hand the value to the
          // node's next interrupt — a repeat of the first answer would answer the second question.
          await carryOnIfStalled(threadId);
          return { status: "not-pending", threadId, interruptId, ...(await askFor(threadId, await pendingOf(threadId), undefined)) };
        }
        let result = await graph.invoke(new Command({ resume: { [interruptId]: answer } }), configOf(threadId));
        result = (await carryOnIfStalled(threadId)) ?? result;
        return { status: "resumed", threadId, interruptId, answer, result, ...(await askFor(threadId, await pendingOf(threadId), undefined)) };
      });
    },

    async resumeFromEvent(event) {
      if (event.type !== "ask.answered" && event.type !== "ask.nothing") return { status: "ignored", reason: "not-an-ask-event" };
      return interrupts.resume(event.data);
    },

    async handleWebhook(request) {
      if (options.webhookSecret === undefined) throw new TypeError("handleWebhook needs webhookSecret: the agent key's whsec_… secret.");
      const event = await verifyWebhook({ ...request, secret: options.webhookSecret });
      return interrupts.resumeFromEvent(event);
    },

    async resumeWhenAnswered(thread, waitOptions = {}) {
      const threadId = threadIdOf(thread);
      const { signal } = waitOptions;
      for (;;) {
        signal?.throwIfAborted();
        const { asks, unasked } = await interrupts.askPending(threadId, waitOptions);
        if (asks.length === 0) return { values: (await graph.getState(configOf(threadId))).values, unasked };
        // Wait on every open ask at once and resume with whichever ends first; the rest are waited on
        // again on the next turn, so people may answer in any order.
        const stop = new AbortController();
        const onAbort = () => stop.abort(signal?.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        try {
          const waits = asks.map(({ ask }) => (ask.status === "open" ? parley.waitForAnswer(ask.id, { signal: stop.signal }).then((outcome) => outcome.ask) : Promise.resolve(ask)));
          // The waits that lose the race reject when they are stopped below.
          for (const wait of waits) wait.catch(() => {});
          await interrupts.resume(await Promise.race(waits));
        } finally {
          signal?.removeEventListener("abort", onAbort);
          stop.abort();
        }
      }
    },
  };
  return interrupts;
}

function configOf(threadId: string): ThreadConfig {
  return { configurable: { thread_id: threadId } };
}

function threadIdOf(thread: ThreadReference): string {
  const id = typeof thread === "string" ? thread : thread.configurable?.thread_id;
  if (typeof id !== "string" || id === "") throw new TypeError("A thread is its thread_id, or a config with configurable.thread_id.");
  return id;
}

function checkpointerOf(graph: InterruptibleGraph): InterruptCheckpointer {
  const candidate = graph.checkpointer as Partial<InterruptCheckpointer> | boolean | undefined;
  if (typeof candidate !== "object" || candidate === null || typeof candidate.getTuple !== "function") {
    throw new TypeError("The graph has no checkpointer: compile it with one (PostgresSaver to survive restarts), or pass checkpointer.");
  }
  return candidate as InterruptCheckpointer;
}
