import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { SlaClock } from "@/components/sla-clock";
import { listOpenSlots } from "@/db/queries/sla";
import { readClock } from "@/lib/sla-clock";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { DAY, HOUR, manualClock } from "../runtime/clock";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("an overdue wait on the SLA page (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("is listed as breached, with negative time, until the sweep expires it", async () => {
    const clock = manualClock();
    fixture = await createExampleFixture(kind, { now: clock.now });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const db = fixture.database.db;

    expect(await listOpenSlots(db, { breachedOnly: true }, clock.now())).toEqual([]);
    // Past the two-day deadline, before any sweep has run.
    clock.advance(2 * DAY + 3 * HOUR + 10 * 60_000);
    const now = clock.now();
    const [slot] = await listOpenSlots(db, { breachedOnly: true }, now);
    expect(slot).toMatchObject({ workflow: "ReviewClaim", state: "Waiting", assigneeName: "Sam Rivera", agent: "Auditor" });
    expect(slot!.headline).toMatch(/^What was the 482\.50 EUR charge at Cervejaria Ramiro/);
    expect(readClock(slot!.openedAt, slot!.dueAt, now)).toMatchObject({ band: "breached", label: "-3h 10m" });
    expect(await listOpenSlots(db, { workflow: "ReviewClaim", agent: "Auditor", assigneeId: fixture.sam.id }, now)).toHaveLength(1);
    expect(await listOpenSlots(db, { assigneeId: fixture.priya.id }, now)).toEqual([]);
    expect(await listOpenSlots(db, { agent: "Someone else" }, now)).toEqual([]);

    const markup = renderToStaticMarkup(createElement(SlaClock, { openedAt: slot!.openedAt.toISOString(), dueAt: slot!.dueAt!.toISOString(), renderedAt: now.toISOString() }));
    expect(markup).toContain('class="sla-clock breached"');
    expect(markup).toContain(">-3h 10m<");

    await fixture.runtime.sweepExpiredSlots();
    expect(await listOpenSlots(db, {}, now)).toEqual([]);
  });
});
