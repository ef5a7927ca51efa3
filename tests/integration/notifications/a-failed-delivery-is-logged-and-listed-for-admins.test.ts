import { afterEach, describe, expect, it, vi } from "vitest";
import { listNoticesForQuestion } from "@/db/queries/notification-outbox";
import { loadFailedDeliveries } from "@/lib/notifications/failed-deliveries";
import { createOutboxDrainer, queueNoticesOnQuestionAsked } from "@/lib/notifications/outbox";
import type { DeliveryReport, Notifier } from "@/lib/notifiers";
import { captureLog } from "@/tests/support/captured-log";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { manualClock } from "../runtime/clock";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

/** An email notifier whose server answers every message with `report`. */
function failingEmail(report: Failure): Notifier {
  return { name: "email", notify: async () => ({ notifier: "email", ...report }) };
}

type Failure = Omit<Extract<DeliveryReport, { status: "failed" }>, "notifier">;

const mailboxUnknown: Failure = { status: "failed", retryable: false, attempts: [{ attempt: 1, outcome: "rejected", statusCode: 550, error: "550 5.1.1 <sam@parley.test>: mailbox unknown", durationMs: 12 }] };
const serverDown: Failure = { status: "failed", retryable: true, attempts: [{ attempt: 1, outcome: "network-error", error: "connect ECONNREFUSED 127.0.0.1:2525", durationMs: 3 }] };

describe.each(DATABASE_KINDS)("a failed delivery (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await fixture?.database.close();
    fixture = undefined;
  });

  async function questionWith(notifier: Notifier) {
    const clock = manualClock();
    fixture = await createExampleFixture(kind, { now: clock.now, announce: queueNoticesOnQuestionAsked({ baseUrl: "https://parley.example.test", notifiers: [notifier], now: clock.now }) });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const drainer = createOutboxDrainer({ db: fixture.database.db, notifiers: [notifier], now: clock.now, retryDelayMs: 60_000, maxDeliveries: 2 });
    return { question: question!, drainer, clock };
  }

  it("refused for good writes one error line naming the question, the notifier and the reason, and admins see it given up", async () => {
    const log = captureLog();
    const { question, drainer } = await questionWith(failingEmail(mailboxUnknown));
    expect(await drainer.drainOnce()).toBe(1);

    expect(log.lines().filter((each) => each.level === "warn")).toEqual([]);
    const errors = log.lines().filter((each) => each.level === "error");
    expect(errors).toHaveLength(1);
    const line = errors[0]!.text;
    expect(line).toContain(`question ${question.id}`);
    expect(line).toContain("through email");
    expect(line).toContain("refused (550): 550 5.1.1 <sam@parley.test>: mailbox unknown");
    expect(line).toContain("given up");

    expect(await loadFailedDeliveries(fixture!.database.db)).toEqual([
      {
        id: expect.any(Number),
        questionId: question.id,
        taskId: question.taskId,
        question: question.title ?? expect.any(String),
        what: "New question",
        notifier: "email",
        recipients: ["Sam Rivera <sam@parley.test>"],
        reason: "refused (550): 550 5.1.1 <sam@parley.test>: mailbox unknown",
        state: "given-up",
        at: expect.any(Date),
        deliveries: 1,
      },
    ]);
  });

  it("that may yet succeed writes a warning for each try, then an error when it runs out of tries; admins see it retrying, then given up", async () => {
    const log = captureLog();
    const linesOf = (level: string) => log.lines().filter((each) => each.level === level);
    const { question, drainer, clock } = await questionWith(failingEmail(serverDown));
    expect(await drainer.drainOnce()).toBe(1);
    expect(linesOf("warn")).toHaveLength(1);
    expect(linesOf("warn")[0]!.text).toMatch(new RegExp(`question ${question.id} through email failed .*could not connect: connect ECONNREFUSED 127\\.0\\.0\\.1:2525; trying again at `));
    expect(linesOf("error")).toEqual([]);
    expect(await loadFailedDeliveries(fixture!.database.db)).toMatchObject([{ state: "retrying", deliveries: 1, reason: "could not connect: connect ECONNREFUSED 127.0.0.1:2525" }]);

    clock.advance(61_000);
    expect(await drainer.drainOnce()).toBe(1);
    expect(linesOf("warn")).toHaveLength(1);
    expect(linesOf("error")).toHaveLength(1);
    expect(linesOf("error")[0]!.text).toContain("given up");
    expect(await listNoticesForQuestion(fixture!.database.db, question.id)).toMatchObject([{ status: "failed", deliveries: 2 }]);
    expect(await loadFailedDeliveries(fixture!.database.db)).toMatchObject([{ state: "given-up", deliveries: 2 }]);
  });

  it("is not listed once it is delivered", async () => {
    let calls = 0;
    const flaky: Notifier = {
      name: "email",
      notify: async (): Promise<DeliveryReport> => (calls++ === 0 ? { notifier: "email", ...serverDown } : { notifier: "email", status: "delivered", attempts: [{ attempt: 1, outcome: "accepted", statusCode: 250, durationMs: 1 }] }),
    };
    captureLog();
    const { drainer, clock } = await questionWith(flaky);
    await drainer.drainOnce();
    clock.advance(61_000);
    await drainer.drainOnce();
    expect(await loadFailedDeliveries(fixture!.database.db)).toEqual([]);
  });
});
