import { afterEach, describe, expect, it } from "vitest";
import { loadSlaSnapshot, saveSlaSnapshot } from "@/db/queries/sla-snapshots";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { fromStoredJson, readSlaHistory, type SlaHistory, toStoredJson } from "@/lib/sla-history";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { seedWaits } from "../inbox/seed-waits";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("SLA numbers kept in the database (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("come back exactly as they were worked out, dates as dates", async () => {
    database = await createTestDatabase(kind);
    const [sam] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    const wait = { assignee: sam!.id, candidates: [sam!.id], workflow: "ReviewClaim", agent: "Auditor", askedAgoMs: 3 * HOUR, dueInMs: -HOUR };
    await seedWaits(database.db, NOW, [
      { ...wait, slotStatus: "finished" as const, finishedBy: sam!.id, finishedAgoMs: HOUR },
      { ...wait, slotStatus: "expired" as const, finishedAgoMs: 2 * HOUR },
    ]);
    const history = await readSlaHistory(database.db, "7d", NOW);
    expect(history.longest.length).toBeGreaterThan(0);

    await saveSlaSnapshot(database.db, "history:7d", { readAt: history.readAt, body: toStoredJson(history) });
    const kept = await loadSlaSnapshot(database.db, "history:7d");
    const back = fromStoredJson<SlaHistory>(kept!.body);
    expect(back).toEqual(history);
    expect(back.longest[0]!.finishedAt).toBeInstanceOf(Date);
    expect(kept!.readAt).toEqual(NOW);
  });

  it("keep the newer of two readings, whichever is saved last", async () => {
    database = await createTestDatabase(kind);
    const later = new Date(NOW.getTime() + 60_000);
    expect(await saveSlaSnapshot(database.db, "open-by-age:all", { readAt: later, body: { ages: [2] } })).toBe(true);
    expect(await saveSlaSnapshot(database.db, "open-by-age:all", { readAt: NOW, body: { ages: [1] } })).toBe(false);
    expect(await loadSlaSnapshot(database.db, "open-by-age:all")).toEqual({ readAt: later, body: { ages: [2] } });
    expect(await loadSlaSnapshot(database.db, "history:24h")).toBeUndefined();
  });
});
