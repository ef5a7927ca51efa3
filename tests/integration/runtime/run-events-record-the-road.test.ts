import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { HOUR, manualClock } from "./clock";
import { CLERK_OPTIONS, createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("the run's event stream (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  async function answeredAfter(hours: number) {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    clock.advance(hours * HOUR);
    await fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: "Just food." }, by: fixture.filer.id });
    await fixture.runtime.drain();
    return fixture.runtime.events(task.id);
  }

  it("times each model turn with the agent's name", async () => {
    const events = await answeredAfter(15);
    const finished = events.filter((event) => event.kind === "turn-finished");
    expect(finished).toHaveLength(2);
    for (const event of finished) {
      expect(event.agent).toBe("Clerk");
      expect(event.data.durationMs).toEqual(expect.any(Number));
      // The person's fifteen hours are not in any turn.
      expect(event.data.durationMs as number).toBeLessThan(HOUR);
    }
  });

  it("records the question with its options, and the answer with who and how long it waited", async () => {
    const events = await answeredAfter(15);
    const asked = events.filter((event) => event.kind === "question-asked");
    expect(asked.map((event) => event.data.options)).toEqual([null, CLERK_OPTIONS]);
    const [answered] = events.filter((event) => event.kind === "answered");
    expect(answered?.data).toMatchObject({ event: "Answered", by: fixture.filer.id, waitMs: 15 * HOUR });
    expect(events.filter((event) => event.kind === "tool-called").map((event) => event.data.tool)).toEqual(["ask", "ask"]);
  });

  it("has no turn for a person's answer", async () => {
    const events = await answeredAfter(15);
    const kinds = events.map((event) => event.kind);
    const parkedAt = kinds.indexOf("parked");
    const resumedAt = kinds.indexOf("resumed");
    expect(kinds.slice(parkedAt, resumedAt + 1)).toEqual(["parked", "state-entered", "slot-opened", "answered", "resumed"]);
  });
});
