import { log } from "@/lib/log";

/** How long a stopping process waits for its jobs in flight before it exits anyway (their leases then expire and another process takes them over). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;

/** How long a stopping process waits, once every request is answered, for the answers to be written to their sockets. */
const ANSWERS_LEAVE_MS = 250;

/** How long a long-poll or live stream ended by a stopping process asks its client to wait before asking again (elsewhere). */
export const RECONNECT_AFTER_SECONDS = 1;

const SHUTDOWN_KEY = Symbol.for("parley.shutdown");
type GlobalWithShutdown = typeof globalThis & { [SHUTDOWN_KEY]?: { controller: AbortController; inFlight: number; idle: Set<() => void> } };

/** The process's shutdown state, one however many copies of this module Next.js bundles. */
function state() {
  const store = globalThis as GlobalWithShutdown;
  return (store[SHUTDOWN_KEY] ??= { controller: new AbortController(), inFlight: 0, idle: new Set() });
}

function controller(): AbortController {
  return state().controller;
}

/** Counts `work` as an API request in flight until it settles: a stopping process answers the ones in flight before it exits. */
export async function inFlight<T>(work: () => Promise<T>): Promise<T> {
  const current = state();
  current.inFlight++;
  try {
    return await work();
  } finally {
    current.inFlight--;
    if (current.inFlight === 0) for (const resolve of current.idle) resolve();
  }
}

/** Resolves once no API request is in flight. */
function noRequestInFlight(): Promise<void> {
  const current = state();
  if (current.inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      current.idle.delete(done);
      resolve();
    };
    current.idle.add(done);
  });
}

/**
 * Aborted when this process begins to stop: requests that would hold on (a long-poll, a live stream)
 * end at once, so a rolling deploy is not held up by them and their clients reconnect to another process.
 */
export function shutdownSignal(): AbortSignal {
  return controller().signal;
}

/** `signal`, or this process stopping, whichever comes first. */
export function untilShutdown(signal: AbortSignal): AbortSignal {
  return AbortSignal.any([signal, shutdownSignal()]);
}

/**
 * Stops this process's work: long-polls and live streams end (their clients are told to come back),
 * the worker stops claiming jobs and finishes the ones it holds, the outbox drainer stops, readiness
 * turns to "not ready" as the worker stops, and the API requests in flight are answered. Resolves `true` when everything
 * finished within `timeoutMs`, `false` when it did not (the caller exits anyway; leases expire).
 */
export async function drainForShutdown(options: { timeoutMs?: number } = {}): Promise<boolean> {
  controller().abort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
  });
  try {
    // Long-polls were just told to answer; the other requests in flight are quick. Both end before the process does.
    // Loaded here, not at the top: every API route counts its requests through this module, and needs no runtime for that.
    const { stopAppRuntimeWork } = await import("@/lib/app-runtime");
    return await Promise.race([Promise.all([stopAppRuntimeWork(), noRequestInFlight()]).then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops this process gracefully on SIGTERM or SIGINT ({@link drainForShutdown}, at most
 * `PARLEY_SHUTDOWN_TIMEOUT_MS`), then exits 0; a second signal exits at once. Only when Next.js was
 * told to leave the signals to Parley (`NEXT_MANUAL_SIG_HANDLE`, which `npm start` sets): otherwise
 * Next.js exits on the first signal itself.
 */
export async function stopGracefullyOnSignals(say: (line: string) => void = (line) => log.info(line)): Promise<void> {
  const { millisecondsSetting } = await import("@/lib/app-runtime");
  const timeoutMs = millisecondsSetting(process.env, "PARLEY_SHUTDOWN_TIMEOUT_MS", 0) ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(signal === "SIGINT" ? 130 : 143);
      stopping = true;
      say(`Parley: ${signal}: stopping — no new job is taken; the ones in hand finish (at most ${timeoutMs / 1000} s).`);
      void drainForShutdown({ timeoutMs }).then(
        async (finished) => {
          // A request counts as answered when its handler returns; Next.js then compresses the answer and writes it
          // to its socket. Exiting at once cut such answers short (a long-poll's client read half a body): a moment for them to leave.
          await new Promise((resolve) => setTimeout(resolve, ANSWERS_LEAVE_MS));
          say(finished ? "Parley: stopped." : "Parley: stopped with jobs unfinished: their leases run out and another server takes them over.");
          // The spans of the last requests and jobs, sent before they are lost with the process.
          await (await import("@/lib/server/tracing")).stopTracing();
          process.exit(0);
        },
        (error: unknown) => {
          log.error({ err: error }, "Parley: stopping failed.");
          process.exit(1);
        },
      );
    });
  }
}
