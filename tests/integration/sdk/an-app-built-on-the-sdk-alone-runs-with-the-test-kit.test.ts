import { eq } from "drizzle-orm";
import { createTestKit, DATABASE_KINDS, HOUR, type TestKit } from "parley/testing";
import { afterEach, describe, expect, it } from "vitest";
import { purchaseApproval } from "./purchase-approval";
import { purchaseRequests } from "./purchase-approval/schema";

// An adopter's app and its tests need nothing of Parley but its SDK: this folder imports only
// `parley/workflows`, `parley/testing` and packages (lint holds it to that, as it holds examples/),
// and the app is not registered in parley.config.ts — the kit migrates its table itself.

describe.each(DATABASE_KINDS)("an app built on parley/workflows alone, tested with parley/testing (%s)", (kind) => {
  let kit: TestKit;
  afterEach(async () => kit?.close());

  const requestOf = async (taskId: string) => (await kit.db.select().from(purchaseRequests).where(eq(purchaseRequests.id, taskId)))[0];

  it("has its own table migrated, and a start form refused in its schema's words that starts nothing", async () => {
    kit = await createTestKit({ app: purchaseApproval, database: kind });
    const start = await kit.start("PurchaseApproval", { item: "Standing desks", amount: "1.840,00" }, { by: kit.people.lee });
    expect(start).toEqual({ status: "refused", fieldErrors: { amount: ["Write the amount as a number with up to two decimals, like 640.00."] }, formErrors: [] });
    expect(await kit.db.$count(purchaseRequests)).toBe(0);
  });

  it("asks the requester why, then finance decides, and keeps both in the app's own table", async () => {
    kit = await createTestKit({ app: purchaseApproval, database: kind, groups: true });
    const { lee, sam, priya } = kit.people;
    const start = await kit.start("PurchaseApproval", { item: "standing desks for support", amount: "1840.00" }, { by: lee });
    if (start.status !== "started") throw new Error("the start form was refused");
    await kit.drain();

    const why = await kit.as(lee).nextQuestion();
    expect(why.spec.fields[0]?.question).toBe("Why does the team need standing desks for support?");
    expect(await kit.as(lee).answer(why, "Four people on support have back trouble; the desks replace chairs.")).toMatchObject({ status: "answered" });
    await kit.drain();
    expect(await requestOf(start.taskId)).toMatchObject({ justification: "Four people on support have back trouble; the desks replace chairs." });

    const [decision] = await kit.as(priya).questions();
    expect(decision).toMatchObject({ title: "Buy standing desks for support?" });
    expect(await kit.as(sam).answer(decision!, { approve: "yes", note: "Go ahead." })).toMatchObject({ status: "answered" });
    await kit.drain();

    expect(await kit.run(start.taskId)).toMatchObject({ workflow: "PurchaseApproval", state: "Approved", status: "completed" });
    expect(await requestOf(start.taskId)).toMatchObject({ decision: "approved", undecided: null });
    expect(await kit.as(priya).questions()).toEqual([]);
  });

  it("reminds finance halfway through the day, and ends with nothing when nobody decides by its end", async () => {
    kit = await createTestKit({ app: purchaseApproval, database: kind, groups: true });
    const start = await kit.start("PurchaseApproval", { item: "a keyboard", amount: "89.00" }, { by: kit.people.lee });
    if (start.status !== "started") throw new Error("the start form was refused");
    await kit.drain();
    expect(await kit.as(kit.people.lee).questions()).toEqual([]);
    expect(await kit.as(kit.people.sam).nextQuestion()).toMatchObject({ title: "Buy a keyboard?" });

    kit.clock.advance(13 * HOUR);
    expect(await kit.tick()).toMatchObject({ expired: 0, escalated: 1 });
    kit.clock.advance(12 * HOUR);
    expect(await kit.tick()).toMatchObject({ expired: 1 });

    expect(await kit.run(start.taskId)).toMatchObject({ state: "Undecided", status: "failed" });
    expect(await requestOf(start.taskId)).toMatchObject({ justification: "a small purchase (a keyboard).", decision: null, undecided: "expired" });
  });
});
