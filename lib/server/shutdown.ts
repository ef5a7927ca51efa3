import { log } from "@/lib/log";
import { closeHttpConnections, httpConnectionsClosed, openHttpConnections, watchHttpConnections } from "@/lib/server/http-connections";

/**
 * How long a stopping process may take: it waits for its requests and jobs in hand until
 * {@link HAND_BACK_MS} before this bound, hands back the jobs still running, and exits.
 */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;

/** The end of the bound kept for handing back the jobs not finished (a quarter of a bound shorter than 4 s). */
const HAND_BACK_MS = 1_000;

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

/** How a stop went: everything finished within the bound, or not — and how many jobs and deliveries went back. */
export interface Drained {
  finished: boolean;
  /** Jobs still running at the bound, queued again with their leases released: another process takes them at once. */
  handedBack: number;
  /** Notifications and webhooks still being delivered at the bound, their leases ended: another process sends them at once. */
  deliveriesHandedBack: number;
}

/** `work`, or `undefined` once `ms` have passed. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, ms))))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops this process's work, within `timeoutMs`: it takes no new connection (answers not begun say
 * `Connection: close`, idle connections close), long-polls and live streams end (their clients are
 * told to come back), the worker stops claiming jobs and finishes the ones it holds, the outbox
 * drainer stops, readiness turns to "not ready" as the worker stops, and every request under way is
 * answered and written out. Past the bound less {@link HAND_BACK_MS}, the jobs still running — the
 * worker's, and those requests run (an ask putting its question) — are handed back: queued again,
 * their leases released, for another process to take at once. `finished` says whether everything
 * ended before that; the caller exits either way.
 */
export async function drainForShutdown(options: { timeoutMs?: number } = {}): Promise<Drained> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const handBackMs = Math.min(HAND_BACK_MS, timeoutMs / 4);
  const waitMs = timeoutMs - handBackMs;
  controller().abort();
  closeHttpConnections();
  // Loaded here, not at the top: every API route counts its requests through this module, and needs no runtime for that.
  const { handBackRequestJobs, stopAppRuntimeWork } = await import("@/lib/app-runtime");
  // The worker hands back what it still holds at waitMs itself.
  const work = stopAppRuntimeWork({ timeoutMs: waitMs });
  const answered = Promise.all([noRequestInFlight(), httpConnectionsClosed()]);
  const ended = await within(Promise.all([work, answered]), waitMs);
  // The jobs requests ran: none left once every request is answered; else back to the queue. Either way no request claims one now.
  const fromRequests = await within(handBackRequestJobs(), handBackMs);
  const worker = ended?.[0] ?? (await within(work, handBackMs));
  return {
    finished: ended !== undefined && ended[0].finished,
    handedBack: (worker?.handedBack ?? 0) + (fromRequests ?? 0),
    deliveriesHandedBack: worker?.deliveriesHandedBack ?? 0,
  };
}

/** What a stop that reached its bound says: what was handed back to another server, and what was still being answered. */
export function stoppedAtBound(timeoutMs: number, { handedBack, deliveriesHandedBack }: Drained, answers: number): string {
  const said = [
    ...(handedBack > 0 || deliveriesHandedBack === 0 ? [`${handedBack} unfinished ${handedBack === 1 ? "job was" : "jobs were"} handed back for another server to run at once`] : []),
    ...(deliveriesHandedBack > 0
      ? [`${deliveriesHandedBack} ${deliveriesHandedBack === 1 ? "delivery still under way was" : "deliveries still under way were"} handed back for another server to send at once`]
      : []),
    ...(answers > 0 ? [`${answers} ${answers === 1 ? "request was" : "requests were"} still being answered`] : []),
  ];
  return `Parley: stopped at its bound (${timeoutMs / 1000} s): ${said.join("; ")}.`;
}

/**
 * Stops this process gracefully on SIGTERM or SIGINT ({@link drainForShutdown}, at most
 * `PARLEY_SHUTDOWN_TIMEOUT_MS`), then exits 0; a second signal exits at once. Only when Next.js was
 * told to leave the signals to Parley (`NEXT_MANUAL_SIG_HANDLE`, which `npm start` sets): otherwise
 * Next.js exits on the first signal itself.
 */
export async function stopGracefullyOnSignals(say: (line: string) => void = (line) => log.info(line)): Promise<void> {
  // Before the first request: a stopping process closes its connections without cutting an answer short.
  watchHttpConnections();
  const { millisecondsSetting } = await import("@/lib/app-runtime");
  const timeoutMs = millisecondsSetting(process.env, "PARLEY_SHUTDOWN_TIMEOUT_MS", 0) ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(signal === "SIGINT" ? 130 : 143);
      stopping = true;
      say(`Parley: ${signal}: stopping — no new connection or job is taken; the requests and jobs in hand finish (at most ${timeoutMs / 1000} s).`);
      void drainForShutdown({ timeoutMs }).then(
        async (drained) => {
          if (drained.finished) say("Parley: stopped.");
          else say(stoppedAtBound(timeoutMs, drained, openHttpConnections().answers));
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
