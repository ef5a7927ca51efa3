import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { appendRunEvents, listRunEvents, type NewRunEvent } from "@/db/queries/runtime-events";
import { loadHandoffGraph } from "@/lib/run-history";
import { handoffGraph } from "@/lib/run-view";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("who handed to whom on a run page (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is counted by the database over the whole run, the same as drawn from all its events", async () => {
    database = await createTestDatabase(kind);
    const taskId = randomUUID();
    const at = new Date("2026-11-01T09:00:00.000Z");
    // Three agents taking turns in an order with repeats, other events between, and a turn no agent took.
    const order = ["Planner", "Planner", "Researcher", "Planner", "Writer", "Researcher", null, "Writer", "Planner", "Researcher", "Planner"];
    const events: NewRunEvent[] = [{ taskId, kind: "run-started", data: { workflow: "Essay" }, at }];
    for (const agent of order) {
      events.push({ taskId, kind: "turn-started", agent, at }, { taskId, kind: "turn-finished", agent, data: { durationMs: 10 }, at }, { taskId, kind: "state-entered", data: { state: "Next" }, at });
    }
    // Another run's turns are not this one's.
    events.push({ taskId: randomUUID(), kind: "turn-started", agent: "Stranger", at });
    await appendRunEvents(database.db, events);

    const graph = await loadHandoffGraph(database.db, taskId);
    expect(graph).toEqual(handoffGraph(await listRunEvents(database.db, taskId)));
    expect(graph).toEqual({
      agents: [
        { name: "Planner", turns: 5 },
        { name: "Researcher", turns: 3 },
        { name: "Writer", turns: 2 },
      ],
      edges: [
        { from: "Planner", to: "Researcher", count: 2 },
        { from: "Researcher", to: "Planner", count: 2 },
        { from: "Planner", to: "Writer", count: 1 },
        { from: "Writer", to: "Researcher", count: 1 },
        // The turn no agent took hands nothing over: the Researcher's turn before it is followed by the Writer's.
        { from: "Researcher", to: "Writer", count: 1 },
        { from: "Writer", to: "Planner", count: 1 },
      ],
    });
  });
});
