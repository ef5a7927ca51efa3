/** How a claimed job's lease is kept. */
export interface LeaseTerms {
  /** How long the job stays this worker's without word from it. */
  readonly leaseMs: number;
  /** How long one job may keep renewing its lease; a job hung longer is left to be taken over. */
  readonly maxJobMs: number;
}

/** The time a lease keeper reads and the beats it renews on: the system's in a runtime, one a test moves by hand. */
export interface LeaseClock {
  /** The runtime's clock, which a lease's end is counted from. */
  now(): Date;
  /** Milliseconds from some fixed moment, never going back: how long the job has run. */
  elapsedMs(): number;
  /** Calls `beat` every `intervalMs` until the returned function is called; never keeps the process alive. */
  every(intervalMs: number, beat: () => void): () => void;
}

/** The system's timers and monotonic clock, with the runtime's clock for the lease's end. */
export function systemLeaseClock(now: () => Date): LeaseClock {
  return {
    now,
    elapsedMs: () => performance.now(),
    every(intervalMs, beat) {
      const timer = setInterval(beat, intervalMs);
      timer.unref?.();
      return () => clearInterval(timer);
    },
  };
}

/** How often a running job's lease is renewed: three times a lease, so two renewals can fail before it runs out. */
export function renewalIntervalMs(leaseMs: number): number {
  return Math.max(10, Math.floor(leaseMs / 3));
}

/**
 * Renews a running job's lease (`renew`, to the time it should last until) every third of a lease
 * until it ends or has run for `maxJobMs`; returns how to stop. A renewal that fails is tried again
 * at the next beat: a lost lease shows at the job's own commit.
 */
export function keepLease(renew: (until: Date) => Promise<unknown>, terms: LeaseTerms, clock: LeaseClock): () => void {
  const startedAt = clock.elapsedMs();
  const stop = clock.every(renewalIntervalMs(terms.leaseMs), () => {
    if (clock.elapsedMs() - startedAt > terms.maxJobMs) return stop();
    renew(new Date(clock.now().getTime() + terms.leaseMs)).catch(() => {
      // Tried again at the next beat.
    });
  });
  return stop;
}
