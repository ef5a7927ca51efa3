import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { tasks } from "@/lib/registry";
import type { Escalation } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { AskWithChain, createEscalationFixture, type EscalationFixture, HOUR } from "./escalation-fixture";

const ASKS = 1_000;
const CHAIN: Escalation = [
  { at: "10%", remind: true },
  { at: "30%", addGroup: "finance" },
  { at: "50%", remind: true },
  { at: "70%", remind: true },
];

describe.each(DATABASE_KINDS)("1,000 asks with escalation chains and the server down across their steps (%s)", (kind) => {
  let fixture: EscalationFixture;
  afterEach(async () => fixture?.database.close());

  it("fire each step exactly once when it comes back, in step order per wait, however many sweeps and instances", { timeout: 240_000 }, async () => {
    fixture = await createEscalationFixture(kind);
    const { db } = fixture.database;
    // Asked over ten minutes, so the steps come due at many different moments.
    for (let batch = 0; batch < 10; batch++) {
      const made = await db
        .insert(tasks)
        .values(Array.from({ length: ASKS / 10 }, (_, index) => ({ workflow: AskWithChain.name, title: `Laptop ${batch}-${index}`, input: { to: fixture.olu.id, escalate: CHAIN } })))
        .returning();
      for (const task of made) await fixture.runtime.start(AskWithChain, task);
      await fixture.runtime.drain({ maxJobs: ASKS });
      fixture.advance(60_000);
    }
    expect(await count("select count(*) from slot_escalations where fired_at is null")).toBe(ASKS * CHAIN.length);

    // Up two hours on: each wait's first step (10 %) fires.
    fixture.advance(2 * HOUR);
    while ((await fixture.runtime.sweepEscalations()) > 0);
    expect(await count("select count(*) from slot_escalations where fired_at is not null")).toBe(ASKS);
    // Then down for six hours: every wait is past its 70 % step, none past its deadline (ten hours).
    fixture.advance(6 * HOUR);
    const other = fixture.anotherRuntime();
    for (;;) {
      const swept = await Promise.all([fixture.runtime.sweepEscalations(), other.sweepEscalations()]);
      if (swept[0] + swept[1] === 0) break;
    }
    await Promise.all([fixture.runtime.tick(), other.tick()]);

    expect(await count("select count(*) from slot_escalations where fired_at is null")).toBe(0);
    expect(await count("select count(*) from run_events where kind = 'escalated'")).toBe(ASKS * CHAIN.length);
    expect(fixture.announced.filter((change) => change.kind === "slot-escalated")).toHaveLength(ASKS * CHAIN.length);
    // Per wait: steps 1–4, each once, recorded in that order.
    const orders = await queryRows<{ steps: string }>(
      db,
      sql`select string_agg(data ->> 'step', ',' order by id) as steps from run_events where kind = 'escalated' group by data ->> 'slotId'`,
    );
    expect(orders).toHaveLength(ASKS);
    expect(new Set(orders.map((row) => row.steps))).toEqual(new Set(["1,2,3,4"]));
    expect(await count("select count(*) from slots where status = 'open' and cardinality(candidate_group_ids) = 1")).toBe(ASKS);
    expect(await count(`select count(*) from person_notifications where kind = 'reminder' and user_id = '${fixture.olu.id}'`)).toBe(ASKS * 3);
  });

  async function count(query: string): Promise<number> {
    const [row] = await queryRows<{ count: number | string }>(fixture.database.db, sql.raw(query));
    return Number(row!.count);
  }
});
