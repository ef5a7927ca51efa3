import type { ClaimedJob } from "@/db/queries/runtime-jobs";

/** Claiming and running jobs, and handing them back: the runtime's part that holds jobs. */
export interface JobLoop {
  /** Claims and runs one job; false when there was none. */
  runNextJob(): Promise<boolean>;
  /**
   * Runs jobs until none is runnable (or `maxJobs` ran); returns how many ran. With `concurrency`
   * above 1, that many jobs run at once (of different runs: a run's jobs never overlap, whoever
   * claims them), each lane claiming the next until it finds none — or, once `stopping` says so,
   * finishing the job it holds and claiming no more.
   */
  drain(options?: { maxJobs?: number; concurrency?: number; stopping?: () => boolean }): Promise<number>;
  /**
   * Runs the queued jobs of one task now, in this process, until it has none (or `maxJobs` ran) —
   * e.g. the ask a request has just started, so the request can say whether it is open or closed
   * with nothing. The worker would run them anyway: whichever claims a job runs it, once.
   */
  runJobsOf(taskId: string, options?: { maxJobs?: number }): Promise<number>;
  /**
   * Hands back the jobs this runtime holds and takes no more — what a stopping process does with the
   * jobs it could not finish within its bound. Each job in hand goes back to the queue with its lease
   * released, by one conditional UPDATE (a job that ended meanwhile, or that another worker took over,
   * is left alone), so the next claim of any worker takes it at once rather than a lease later; a
   * claim under way goes back as soon as it lands, unrun; and from then on nothing here claims a job
   * (runNextJob, drain and runJobsOf find none). Code still running a handed-back job here has
   * whatever it commits after refused, as after a lost lease. Resolves, with how many jobs went back,
   * once every claim under way has landed.
   */
  handBackJobs(): Promise<number>;
}

/** What the job loop does with jobs, handed in by the runtime (a test hands in its own). */
export interface JobLoopParts {
  /** Claims the next runnable job (of one task, when given) with a lease for this worker; undefined when there is none. */
  claimNext(taskId?: string): Promise<ClaimedJob | undefined>;
  /** Queues a job this worker holds again with its lease released; false when it had ended or was taken over meanwhile. */
  release(job: ClaimedJob): Promise<boolean>;
  /** Runs a claimed job; whether another job may be runnable now. */
  runJob(job: ClaimedJob): Promise<boolean>;
  /** Told of each job claimed from a worker whose lease on it ran out. */
  onLeaseTakeover(job: { kind: string; workflow: string; taskId: string }): void;
}

/** How many jobs a drain runs at most, unless told. */
const DEFAULT_DRAIN_JOBS = 1_000;
/** How many jobs of one task `runJobsOf` runs at most, unless told. */
const DEFAULT_TASK_JOBS = 100;

/**
 * The job loop over `parts`: it knows which jobs it holds from the moment each claim's answer
 * arrives until the job's run ends, so a hand-back at any moment finds every one.
 */
export function createJobLoop(parts: JobLoopParts): JobLoop {
  /** The jobs held, by id: each from the moment its claim's answer arrives until its run ends. */
  const inHand = new Map<number, ClaimedJob>();
  /** Claims sent and not answered yet; each settles once its job is in hand (or handed straight back, or there was none). */
  const claimsUnderWay = new Set<Promise<{ job?: ClaimedJob; handedBack: boolean }>>();
  /** Set by handBackJobs: no claim is sent any more, and one that lands goes straight back. */
  let handingBack = false;

  // A release that fails (the database away) leaves the job to its lease.
  const release = (job: ClaimedJob) => parts.release(job).catch(() => false);

  /**
   * Claims the next job and puts it in hand in the same step as the claim's answer arrives, so a job
   * is never held without the loop knowing: a hand-back at any moment finds it.
   */
  function claim(taskId?: string): Promise<{ job?: ClaimedJob; handedBack: boolean }> {
    const claimed = parts.claimNext(taskId).then(async (job) => {
      if (!job) return { handedBack: false };
      if (handingBack) return { handedBack: await release(job) };
      if (job.takenOver) parts.onLeaseTakeover({ kind: job.kind, workflow: job.workflow, taskId: job.taskId });
      inHand.set(job.id, job);
      return { job, handedBack: false };
    });
    claimsUnderWay.add(claimed);
    const landed = () => void claimsUnderWay.delete(claimed);
    claimed.then(landed, landed);
    return claimed;
  }

  /** Claims and runs the next job (of one task, when given): none to claim, ran one, or ran one and saw nothing else runnable. */
  async function runNext(taskId?: string): Promise<"none" | "ran" | "ran-last"> {
    if (handingBack) return "none";
    const { job } = await claim(taskId);
    if (!job) return "none";
    try {
      // Handed back between its claim and this moment: not run here.
      if (handingBack) return "none";
      return (await parts.runJob(job)) ? "ran" : "ran-last";
    } finally {
      inHand.delete(job.id);
    }
  }

  return {
    async runNextJob() {
      return (await runNext()) !== "none";
    },

    async drain(options = {}) {
      const maxJobs = options.maxJobs ?? DEFAULT_DRAIN_JOBS;
      let taken = 0;
      // One lane claims and runs a job at a time; a job is counted before it is claimed, so lanes never run more than maxJobs together.
      const lane = async () => {
        // A stopping worker claims nothing more: each lane finishes the job it holds and ends.
        while (taken < maxJobs && !options.stopping?.()) {
          taken++;
          const outcome = await runNext();
          if (outcome === "none") {
            taken--;
            return;
          }
          if (outcome === "ran-last") return;
        }
      };
      const lanes = Math.max(1, Math.floor(options.concurrency ?? 1));
      // Every lane ends before the drain does, even when one fails: the next tick never overlaps this one.
      const ended = await Promise.allSettled(Array.from({ length: lanes }, lane));
      const failed = ended.find((lane): lane is PromiseRejectedResult => lane.status === "rejected");
      if (failed) throw failed.reason;
      return taken;
    },

    async runJobsOf(taskId, options = {}) {
      const maxJobs = options.maxJobs ?? DEFAULT_TASK_JOBS;
      let ran = 0;
      while (ran < maxJobs && (await runNext(taskId)) !== "none") ran++;
      return ran;
    },

    async handBackJobs() {
      handingBack = true;
      const held = [...inHand.values()];
      const landing = [...claimsUnderWay];
      const released = await Promise.all(held.map(release));
      const landed = await Promise.all(landing.map((each) => each.then((claimed) => claimed.handedBack, () => false)));
      return [...released, ...landed].filter(Boolean).length;
    },
  };
}
