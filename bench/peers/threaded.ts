/**
 * A contender in a worker thread of its own: its own V8 heap, garbage collector and compiled code,
 * as it would have in a process of its own, while the rounds stay interleaved from this thread.
 * Contenders sharing one heap pay for each other's garbage (a collection falls in whichever cycle is
 * allocating when the young generation fills) and share the compiler's feedback on the code they
 * have in common; in a thread of its own a contender's cycle pays only for its own.
 */
import { Worker } from "node:worker_threads";
import type { Span } from "../support/stats";
import type { ClerkBehaviour } from "./parley";

/** What a thread runs, opened there (a PostgreSQL database must exist and be empty: it is set up in the thread). */
export type PeerSpec =
  | { peer: "parley"; target: { kind: "postgres"; url: string } | { kind: "pglite"; storage: "memory" | "file" }; behaviour: ClerkBehaviour }
  | { peer: "langgraph"; url: string; behaviour: ClerkBehaviour }
  | { peer: "raw"; target: { kind: "postgres"; url: string } | { kind: "pglite"; storage: "memory" | "file" } };

/** What the main thread asks of a contender's thread; each request is answered once, in order. */
export type ThreadRequest = { op: "once" } | { op: "collections" } | { op: "cpu"; cycles: number } | { op: "verify" } | { op: "close" };

/** A thread's answer: the value, or the message of what went wrong. */
export type ThreadReply = { ok: true; value: unknown } | { ok: false; error: string };

/** A contender running in its own thread. */
export interface ThreadedContender {
  /** One cycle, timed in the contender's thread; its milliseconds. */
  once(): Promise<number>;
  /** Every cycle `once` ran, in order, and the thread's garbage-collection pauses, on the thread's own clock. */
  collections(): Promise<{ cycles: Span[]; pauses: Span[] }>;
  /** Runs `cycles` cycles and returns the process's CPU time (user + system) per cycle: only this thread works meanwhile. */
  cpuPerCycle(cycles: number): Promise<number>;
  /** Throws unless every cycle finished (the peer's own check); the number checked. */
  verify(): Promise<number>;
  /** Closes the contender and ends its thread. */
  close(): Promise<void>;
}

/** Starts a thread running the contender `spec` names; resolves once it is open. */
export async function openThreaded(spec: PeerSpec): Promise<ThreadedContender> {
  // The entry is a plain module that has tsx compile the TypeScript side: on Node 20 a worker does not
  // inherit the loader tsx registered in the main thread.
  const worker = new Worker(new URL("./threaded-worker.mjs", import.meta.url), { workerData: spec });
  const waiting: { resolve: (value: unknown) => void; reject: (error: Error) => void }[] = [];
  let failed: Error | undefined;
  const fail = (error: Error) => {
    failed ??= error;
    for (const each of waiting.splice(0)) each.reject(error);
  };
  worker.on("message", (reply: ThreadReply) => {
    const next = waiting.shift();
    if (!next) return fail(new Error(`${spec.peer}'s thread answered what was not asked`));
    if (reply.ok) next.resolve(reply.value);
    else next.reject(new Error(`${spec.peer}'s thread: ${reply.error}`));
  });
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`${spec.peer}'s thread exited (code ${code})`)));
  const ask = <T>(request: ThreadRequest | null): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failed) return reject(failed);
      waiting.push({ resolve: resolve as (value: unknown) => void, reject });
      if (request) worker.postMessage(request);
    });
  // The thread's first message says it is open (or why it could not open).
  await ask<void>(null);
  return {
    once: () => ask<number>({ op: "once" }),
    collections: () => ask<{ cycles: Span[]; pauses: Span[] }>({ op: "collections" }),
    cpuPerCycle: (cycles) => ask<number>({ op: "cpu", cycles }),
    verify: () => ask<number>({ op: "verify" }),
    async close() {
      await ask<void>({ op: "close" });
      worker.removeAllListeners("exit");
      await worker.terminate();
    },
  };
}
