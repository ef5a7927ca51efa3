import { describe, expect, it } from "vitest";
import type { ClaimedJob } from "@/db/queries/runtime-jobs";
import { createJobLoop, type JobLoopParts } from "@/lib/runtime/job-loop";

/** A claimed job as the claim statement returns it. */
function job(id: number, overrides: Partial<ClaimedJob> = {}): ClaimedJob {
  return {
    id,
    kind: "enter",
    jobState: "Running",
    slotId: null,
    payload: null,
    attempts: 1,
    instanceId: `instance-${id}`,
    workflow: "FileTask",
    taskId: `task-${id}`,
    state: "Running",
    status: "running",
    version: 1,
    traceContext: null,
    takenOver: false,
    ...overrides,
  };
}

/** A promise and the means to settle it from the test. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Parts over a queue of jobs, recording what the loop did with each. */
function fakeParts(queue: ClaimedJob[], overrides: Partial<JobLoopParts> = {}) {
  const ran: number[] = [];
  const released: number[] = [];
  const takenOver: string[] = [];
  const parts: JobLoopParts = {
    claimNext: async (taskId) => {
      const index = queue.findIndex((each) => taskId === undefined || each.taskId === taskId);
      return index < 0 ? undefined : queue.splice(index, 1)[0];
    },
    release: async (each) => {
      released.push(each.id);
      return true;
    },
    runJob: async (each) => {
      ran.push(each.id);
      return true;
    },
    onLeaseTakeover: (each) => void takenOver.push(each.taskId),
    ...overrides,
  };
  return { parts, ran, released, takenOver };
}

describe("a job loop handing back its jobs", () => {
  it("releases each job in hand, counts them, and claims nothing after", async () => {
    const running = deferred<boolean>();
    const queue = [job(1), job(2)];
    const { parts, released, ran } = fakeParts(queue, {
      runJob: async (each) => {
        ran.push(each.id);
        return running.promise;
      },
    });
    const loop = createJobLoop(parts);
    const first = loop.runNextJob();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual([1]);

    expect(await loop.handBackJobs()).toBe(1);
    expect(released).toEqual([1]);
    expect(await loop.runNextJob()).toBe(false);
    expect(await loop.drain()).toBe(0);
    expect(await loop.runJobsOf("task-2")).toBe(0);
    expect(queue.map((each) => each.id)).toEqual([2]);
    running.resolve(true);
    expect(await first).toBe(true);
  });

  it("hands back a claim under way as it lands, unrun", async () => {
    const claimed = deferred<ClaimedJob | undefined>();
    const { parts, released, ran } = fakeParts([], { claimNext: () => claimed.promise });
    const loop = createJobLoop(parts);
    const next = loop.runNextJob();
    const handingBack = loop.handBackJobs();
    claimed.resolve(job(7));
    expect(await handingBack).toBe(1);
    expect(released).toEqual([7]);
    expect(await next).toBe(false);
    expect(ran).toEqual([]);
  });

  it("does not count a job that ended or was taken over before it went back, nor one whose release failed", async () => {
    const holding = deferred<boolean>();
    const { parts } = fakeParts([job(1), job(2)], {
      runJob: () => holding.promise,
      release: async (each) => {
        if (each.id === 1) return false;
        throw new Error("the database is away");
      },
    });
    const loop = createJobLoop(parts);
    const lanes = loop.drain({ concurrency: 2 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await loop.handBackJobs()).toBe(0);
    holding.resolve(true);
    await lanes;
  });

  it("tells of a job it took over from a worker whose lease ran out", async () => {
    const { parts, takenOver } = fakeParts([job(1), job(2, { takenOver: true })]);
    const loop = createJobLoop(parts);
    expect(await loop.drain()).toBe(2);
    expect(takenOver).toEqual(["task-2"]);
  });
});

describe("a drain", () => {
  it("runs at most maxJobs, however many lanes claim", async () => {
    const queue = Array.from({ length: 10 }, (_, index) => job(index + 1));
    const { parts, ran } = fakeParts(queue);
    const loop = createJobLoop(parts);
    expect(await loop.drain({ maxJobs: 4, concurrency: 3 })).toBe(4);
    expect(ran).toHaveLength(4);
    expect(queue).toHaveLength(6);
  });

  it("runs as many jobs at once as it has lanes", async () => {
    let running = 0;
    let most = 0;
    const { parts } = fakeParts(
      Array.from({ length: 6 }, (_, index) => job(index + 1)),
      {
        runJob: async () => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
          return true;
        },
      },
    );
    expect(await createJobLoop(parts).drain({ concurrency: 3 })).toBe(6);
    expect(most).toBe(3);
  });

  it("ends a lane without claiming again when its job saw nothing else runnable", async () => {
    let claims = 0;
    const queue = [job(1), job(2)];
    const { parts } = fakeParts(queue, {
      claimNext: async () => {
        claims++;
        return queue.shift();
      },
      runJob: async () => false,
    });
    expect(await createJobLoop(parts).drain()).toBe(1);
    expect(claims).toBe(1);
  });

  it("claims no more once it is told it is stopping, finishing the job it holds", async () => {
    let stopping = false;
    const queue = [job(1), job(2), job(3)];
    const { parts, ran } = fakeParts(queue, {
      runJob: async (each) => {
        ran.push(each.id);
        stopping = true;
        return true;
      },
    });
    expect(await createJobLoop(parts).drain({ stopping: () => stopping })).toBe(1);
    expect(ran).toEqual([1]);
    expect(queue).toHaveLength(2);
  });

  it("ends every lane before it fails with a lane's error", async () => {
    const slow = deferred<boolean>();
    let slowEnded = false;
    const { parts } = fakeParts([job(1), job(2)], {
      runJob: async (each) => {
        if (each.id === 1) throw new Error("the database is away");
        await slow.promise;
        slowEnded = true;
        return true;
      },
    });
    const drained = createJobLoop(parts).drain({ concurrency: 2 });
    setTimeout(() => slow.resolve(true), 5);
    await expect(drained).rejects.toThrow("the database is away");
    expect(slowEnded).toBe(true);
  });
});

describe("running one task's jobs", () => {
  it("claims only that task's jobs, until it has none", async () => {
    const queue = [job(1, { taskId: "a" }), job(2, { taskId: "b" }), job(3, { taskId: "a" })];
    const { parts, ran } = fakeParts(queue);
    expect(await createJobLoop(parts).runJobsOf("a")).toBe(2);
    expect(ran).toEqual([1, 3]);
  });
});
