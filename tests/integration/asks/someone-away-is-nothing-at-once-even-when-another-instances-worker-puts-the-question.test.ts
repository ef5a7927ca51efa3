import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "@/db/notifications";
import { ApiAsk } from "@/lib/asks/api-ask-workflow";
import { createAskService } from "@/lib/asks/asks";
import { LIVE_CHANNEL, type LiveEvent } from "@/lib/live-events";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, BASE_URL, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("asking someone away on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("is nothing at once even when another instance's worker claimed the job that puts the question", async () => {
    fixture = await createAskFixture(kind);
    const { database, announce } = fixture;
    // Another instance sharing the database, whose worker claims the new run's job a moment before this one looks.
    const otherInstance = createRuntime({ db: database.db, workflows: [ApiAsk], announce, now: () => new Date(fixture!.clock.now) });
    let othersWork: Promise<unknown> = Promise.resolve();
    const thisInstance: Runtime = {
      ...fixture.runtime,
      async runJobsOf(taskId) {
        othersWork = sleep(300).then(() => otherInstance.runJobsOf(taskId));
        // This instance finds the job in the other's hands: a run's jobs never run at once.
        return 0;
      },
    };
    const service = createAskService({
      db: database.db,
      runtime: thisInstance,
      baseUrl: BASE_URL,
      now: () => new Date(fixture!.clock.now),
      async subscribe(handler) {
        const stop = await listen(database, LIVE_CHANNEL, (payload) => handler(JSON.parse(payload) as LiveEvent));
        return () => void stop().catch(() => {});
      },
    });

    const { ask } = await service.create(fixture.key, { to: fixture.cy.email, title: "Approve the invoice?" });
    await othersWork;
    expect(ask).toMatchObject({ status: "nothing", reason: "away" });
  });
});
