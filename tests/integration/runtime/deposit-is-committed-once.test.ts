import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { listSlotsForTask } from "@/db/queries/runtime-slots";
import { AppError } from "@/lib/errors";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { alsoAnswerable, createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a deposit (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("wins exactly once among 100 concurrent ones; every other is told who answered and when", async () => {
    fixture = await createRuntimeFixture(kind);
    const people = await insertUsersIfAbsent(
      fixture.database.db,
      Array.from({ length: 98 }, (_, index) => ({ email: `answerer${index}@parley.test`, name: `Answerer ${index}`, roles: ["assignee" as const] })),
    );
    alsoAnswerable(people.map((person) => person.id));
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const answerers = [fixture.filer, fixture.colleague, ...people];

    const results = await Promise.allSettled(
      answerers.map((person) =>
        fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: `Answer from ${person.name}` }, by: person.id }),
      ),
    );
    const won = results.filter((result) => result.status === "fulfilled");
    const lost = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(99);

    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    const winner = answerers.find((person) => person.id === slot!.finishedBy)!;
    for (const { reason } of lost) {
      expect(reason).toBeInstanceOf(AppError);
      expect(reason).toMatchObject({ code: "conflict", message: `Already answered by ${winner.name} at ${slot!.finishedAt!.toISOString()}.` });
    }
    expect(await countRows(fixture.database.db, "jobs", "kind = 'event'")).toBe(1);
    expect(await countRows(fixture.database.db, "run_events", "kind = 'answered'")).toBe(1);
  });

  it("by someone who may not answer is forbidden and changes nothing", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const depositing = fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: "I'd approve it." }, by: fixture.outsider.id });
    await expect(depositing).rejects.toMatchObject({ code: "forbidden" });
    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    expect(slot).toMatchObject({ status: "open", finishedBy: null, payload: null });
    expect(await countRows(fixture.database.db, "jobs", "kind = 'event'")).toBe(0);
  });

  it("that the event's schema refuses is never committed", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const depositing = fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: "   " }, by: fixture.filer.id });
    await expect(depositing).rejects.toMatchObject({ code: "invalid_input", message: "Please write an answer." });
    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    expect(slot?.status).toBe("open");
  });
});
