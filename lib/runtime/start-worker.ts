import type { Runtime } from "./create-runtime";
import { SLA_SWEEP_BATCH } from "./sweeps";

/** How a worker's stop went: every job it held ran to its end, or `handedBack` of them went back to the queue at the bound. */
export interface WorkerStopped {
  finished: boolean;
  handedBack: number;
}

/** A running worker loop. */
export interface Worker {
  /** Runs the next tick now instead of at the end of the interval (e.g. right after a deposit). */
  wake(): void;
  /**
   * Stops: it claims no more jobs (the rest stay queued for another worker) and waits for the ones it
   * holds — a claim under way when it was told included: that job runs too — to run to their end.
   * With `timeoutMs`, it waits at most that long, then hands back every job still in hand
   * ({@link Runtime.handBackJobs}: queued again, the lease released, for another worker to take at
   * once) and resolves without waiting for the code still running them. Says whether every job ended,
   * and how many went back.
   */
  stop(options?: { timeoutMs?: number }): Promise<WorkerStopped>;
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
    async stop(stopOptions = {}) {
      stopped = true;
      wakeUp?.();
      if (stopOptions.timeoutMs === undefined) {
        await loop;
        return { finished: true, handedBack: 0 };
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), stopOptions.timeoutMs)));
      const ended = await Promise.race([loop.then(() => true as const), late]);
      clearTimeout(timer);
      if (ended) return { finished: true, handedBack: 0 };
      // Past the bound: what is still in hand goes back to the queue now, not when its lease runs out.
      return { finished: false, handedBack: await runtime.handBackJobs() };
    },
    running() {
      return !stopped && !ended;
    },
  };
}
