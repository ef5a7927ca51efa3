import { type Runtime, SLA_SWEEP_BATCH } from "./create-runtime";

/** A running worker loop. */
export interface Worker {
  /** Runs the next tick now instead of at the end of the interval (e.g. right after a deposit). */
  wake(): void;
  /** Stops: the jobs it holds run to their end, and it claims no more (the rest stay queued for another worker). */
  stop(): Promise<void>;
  /** Whether the loop is still going: started, not stopped, not ended. */
  running(): boolean;
}

/**
 * Runs a runtime's ticks (SLA sweep, then every runnable job) in a loop: one loop per process, never
 * a timer per wait. Errors are reported and the loop carries on; the work they hit stays queued.
 * `concurrency` jobs (of different runs) run at once; a run's own jobs never overlap.
 */
export function startWorker(runtime: Runtime, options: { intervalMs?: number; concurrency?: number; onError?: (error: unknown) => void } = {}): Worker {
  const intervalMs = options.intervalMs ?? 1_000;
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let ended = false;

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let backlog = false;
      try {
        // A full sweep means more slots are overdue (or have steps due): catch up before sleeping.
        const swept = await runtime.tick({ concurrency: options.concurrency ?? 1, stopping: () => stopped });
        backlog = swept.expired >= SLA_SWEEP_BATCH || swept.escalated >= SLA_SWEEP_BATCH;
      } catch (error) {
        options.onError?.(error);
      }
      if (stopped || woken || backlog) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  })().finally(() => {
    ended = true;
  });

  return {
    wake() {
      woken = true;
      wakeUp?.();
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await loop;
    },
    running() {
      return !stopped && !ended;
    },
  };
}
