import { describe, expect, it } from "vitest";
import { type Runtime, startWorker } from "@/lib/runtime";

describe("the worker loop", () => {
  it("says it is running from its start until it is stopped", async () => {
    const runtime = { tick: async () => ({ expired: 0, escalated: 0 }) } as unknown as Runtime;
    const worker = startWorker(runtime, { intervalMs: 10 });
    expect(worker.running()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(worker.running()).toBe(true);
    await worker.stop();
    expect(worker.running()).toBe(false);
  });
});
