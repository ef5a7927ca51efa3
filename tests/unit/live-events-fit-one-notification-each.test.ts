import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MAX_NOTIFICATION_BYTES } from "@/db/notifications";
import { liveEventsFor } from "@/lib/app-runtime";
import type { RuntimeChange } from "@/lib/runtime";

function change(people: number): RuntimeChange {
  return { kind: "slot-opened", taskId: randomUUID(), questionId: randomUUID(), slotId: randomUUID(), userIds: Array.from({ length: people }, () => randomUUID()) };
}

describe("a runtime change announced live", () => {
  it("is one event when its audience fits one notification", () => {
    const small = change(3);
    expect(liveEventsFor(small)).toEqual([
      { kind: "slot-opened", taskId: small.taskId, questionId: small.questionId, audience: { userIds: small.userIds, roles: ["operator", "admin"] } },
    ]);
  });

  it("to a thousand candidates is split into notifications PostgreSQL takes, naming everyone once and operators once", () => {
    const large = change(1_000);
    const events = liveEventsFor(large);
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThanOrEqual(MAX_NOTIFICATION_BYTES);
    expect(events.flatMap((event) => event.audience.userIds ?? [])).toEqual(large.userIds);
    expect(events.filter((event) => event.audience.roles?.length)).toHaveLength(1);
    expect(new Set(events.map((event) => `${event.kind} ${event.taskId} ${event.questionId}`)).size).toBe(1);
  });
});
