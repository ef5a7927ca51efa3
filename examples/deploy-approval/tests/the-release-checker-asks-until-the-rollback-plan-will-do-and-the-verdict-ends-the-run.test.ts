import { createTestKit, DATABASE_KINDS, HOUR, type TestKit } from "parley/testing";
import { tasks } from "parley/workflows";
import { afterEach, describe, expect, it } from "vitest";
import { deployApproval } from "..";

/** What an operator types into the start form (a browser posts strings). */
function startForm(approverId: string, overrides: Record<string, string> = {}) {
  return { service: "billing-api", version: "2.14.0", environment: "production", change: "Invoices get a tax line per region.", approverId, ...overrides };
}

/** A day a week from now (YYYY-MM-DD): a window that has not passed whenever the test runs. */
function inAWeek(): string {
  return new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
}

describe.each(DATABASE_KINDS)("the deployment approval (%s)", (kind) => {
  let kit: TestKit;
  afterEach(async () => kit?.close());

  async function started(form: Record<string, string>): Promise<string> {
    const start = await kit.start("DeployApproval", form);
    if (start.status !== "started") throw new Error(`the start form was refused: ${JSON.stringify(start.fieldErrors)}`);
    await kit.drain();
    return start.taskId;
  }

  it("refuses a start form on the field, in the schema's words, and starts nothing", async () => {
    kit = await createTestKit({ app: deployApproval, database: kind });
    const start = await kit.start("DeployApproval", startForm(kit.people.lee.id, { version: "2.14" }));
    expect(start).toEqual({ status: "refused", fieldErrors: { version: ["Write the version as major.minor.patch, like 2.14.0."] }, formErrors: [] });
    expect(await kit.db.$count(tasks)).toBe(0);
  });

  it("asks again while the rollback plan is thin, then asks for the verdict and ends where it says", async () => {
    kit = await createTestKit({ app: deployApproval, database: kind });
    const lee = kit.as(kit.people.lee);
    const taskId = await started(startForm(kit.people.lee.id));

    expect((await lee.nextQuestion()).spec.fields[0]?.question).toMatch(/rollback of billing-api 2\.14\.0 was not tested/);
    expect(await lee.answer(await lee.nextQuestion(), "revert it")).toMatchObject({ status: "answered" });
    await kit.drain();
    expect((await lee.nextQuestion()).spec.fields[0]?.question).toMatch(/"revert it" is too thin to go on/);
    await lee.answer(await lee.nextQuestion(), "Redeploy 2.13.4 from the release pipeline; it takes ten minutes and Lee runs it.");
    await kit.drain();

    const approval = await lee.nextQuestion();
    expect(approval).toMatchObject({ title: "Approve billing-api 2.14.0 to production?", workflow: "DeployApproval" });
    const refused = await lee.answer(approval, { decision: "approve", window: "2024-03-01", notify: "", notes: "-" });
    expect(refused).toMatchObject({ status: "refused", fieldErrors: { window: ["That day has passed: pick today or a later day."] } });
    expect(await lee.answer(approval, { decision: "approve", window: inAWeek(), notify: "billing, support", notes: "-" })).toMatchObject({ status: "answered" });
    await kit.drain();
    expect(await kit.run(taskId)).toMatchObject({ state: "Approved", status: "completed", runState: "completed" });
  });

  it("asks a staging release's approver for the verdict at once, and ends with nothing when nobody gives it in time", async () => {
    kit = await createTestKit({ app: deployApproval, database: kind });
    const taskId = await started(startForm(kit.people.lee.id, { environment: "staging" }));
    expect(await kit.as(kit.people.lee).nextQuestion()).toMatchObject({ title: "Approve billing-api 2.14.0 to staging?" });

    kit.clock.advance(9 * HOUR);
    expect(await kit.tick()).toMatchObject({ expired: 1 });
    expect(await kit.as(kit.people.lee).questions()).toEqual([]);
    expect(await kit.run(taskId)).toMatchObject({ state: "NotApproved", status: "failed" });
  });
});
