import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { AskWithChain, createEscalationFixture, type EscalationFixture } from "./escalation-fixture";

describe.each(DATABASE_KINDS)("an escalation chain that cannot be kept (%s)", (kind) => {
  let fixture: EscalationFixture;
  afterEach(async () => fixture?.database.close());

  it("adding a group that does not exist stops the run as a definition error, asking nobody", async () => {
    fixture = await createEscalationFixture(kind);
    const { taskId } = await startAsk(fixture, [{ at: "80%", addGroup: "legal" }]);

    expect((await fixture.runtime.events(taskId)).at(-1)).toMatchObject({
      kind: "failed",
      data: { code: "definition_error", retryable: false, cause: expect.stringMatching(/escalates to the group “legal”, and there is no such group/) },
    });
    expect(await fixture.runtime.questionsFor(fixture.olu.id)).toEqual([]);
  });

  async function startAsk(on: EscalationFixture, escalate: unknown): Promise<{ taskId: string }> {
    const [task] = await on.database.db.insert(tasks).values({ workflow: AskWithChain.name, title: "A new laptop", input: { to: on.olu.id, escalate } }).returning();
    await on.runtime.start(AskWithChain, task!);
    await on.runtime.runJobsOf(task!.id);
    return { taskId: task!.id };
  }
});
