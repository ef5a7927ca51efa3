import { afterEach, describe, expect, it } from "vitest";
import { listNoticesForQuestion } from "@/db/queries/notification-outbox";
import { createOutboxDrainer, queueNoticesOnQuestionAsked } from "@/lib/notifications/outbox";
import { createWebhookNotifier, newWebhookSecret, type Notifier } from "@/lib/notifiers";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { verifiedByStandardWebhooks } from "../notifiers/support/standard-webhooks";
import { startWebhookReceiver, type WebhookResponse } from "../notifiers/support/webhook-receiver";
import { manualClock } from "../runtime/clock";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

const secret = newWebhookSecret();
const baseUrl = "https://parley.example.test";

describe.each(DATABASE_KINDS)("question notices (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.database.close();
    receiver = undefined;
    fixture = undefined;
  });

  async function setUp(respond: (index: number) => WebhookResponse, webhook: { maxAttempts?: number; attemptTimeoutMs?: number } = {}) {
    receiver = await startWebhookReceiver(respond);
    const notifier: Notifier = createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 5, maxRetryDelayMs: 5, ...webhook });
    const clock = manualClock();
    fixture = await createExampleFixture(kind, { now: clock.now, announce: queueNoticesOnQuestionAsked({ baseUrl, notifiers: [notifier], now: clock.now }) });
    const drainer = createOutboxDrainer({ db: fixture.database.db, notifiers: [notifier], now: clock.now, retryDelayMs: 60_000 });
    return { notifier, clock, drainer, fixture, receiver };
  }

  it("are queued with the question and delivered once, signed, to the assignee", async () => {
    const { drainer, fixture, receiver } = await setUp(() => ({ status: 204 }));
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    expect(receiver.received).toHaveLength(0);
    expect(await listNoticesForQuestion(fixture.database.db, question!.id)).toMatchObject([{ kind: "question-opened", notifier: "webhook", status: "queued" }]);

    expect(await drainer.drainOnce()).toBe(1);
    expect(await drainer.drainOnce()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    expect(verifiedByStandardWebhooks(secret, webhook!)).toMatchObject({
      type: "question.opened",
      data: {
        id: question!.id,
        url: `${baseUrl}/questions/${question!.id}`,
        asked_by: "Auditor",
        recipients: [{ user_id: fixture.sam.id, name: "Sam Rivera", email: "sam@parley.test" }],
      },
    });
    expect(webhook!.headers["webhook-id"]).toBe(`${question!.id}:question-opened`);
    expect(await listNoticesForQuestion(fixture.database.db, question!.id)).toMatchObject([{ status: "delivered", deliveries: 1, report: { status: "delivered" } }]);
  });

  it("never hold up the run: with the receiver hanging, the answer is taken and the run carries on", async () => {
    const { drainer, fixture, receiver } = await setUp(() => "hang", { maxAttempts: 1, attemptTimeoutMs: 3_000 });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);

    // A delivery is in flight, stuck on the receiver…
    const delivering = drainer.drainOnce();
    await expect.poll(() => receiver.received.length).toBe(1);
    // …while the person answers and the run moves on.
    const started = Date.now();
    const answered = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: { form: { answer: "Client dinner with Acme." } } });
    expect(answered.status).toBe("answered");
    await fixture.runtime.drain();
    expect(Date.now() - started).toBeLessThan(2_500);
    const events = (await fixture.runtime.events(question!.taskId)).map((event) => event.kind);
    expect(events.filter((event) => event === "answered")).toHaveLength(1);
    expect(events.at(-1)).not.toBe("answered");

    expect(await delivering).toBe(1);
    // The timeout was retryable: queued again for later, with its report.
    const [row] = await listNoticesForQuestion(fixture.database.db, question!.id);
    expect(row).toMatchObject({ status: "queued", deliveries: 1, report: { status: "failed", retryable: true } });
  });

  it("a failing receiver is retried with backoff until it accepts, under one webhook-id", async () => {
    const { clock, drainer, fixture, receiver } = await setUp((index) => ({ status: index < 2 ? 503 : 200 }), { maxAttempts: 1 });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);

    expect(await drainer.drainOnce()).toBe(1);
    clock.advance(59_000);
    expect(await drainer.drainOnce()).toBe(0);
    clock.advance(1_000);
    expect(await drainer.drainOnce()).toBe(1);
    // The second wait is twice the first.
    clock.advance(60_000);
    expect(await drainer.drainOnce()).toBe(0);
    clock.advance(60_000);
    expect(await drainer.drainOnce()).toBe(1);
    expect(receiver.received).toHaveLength(3);
    expect(await listNoticesForQuestion(fixture.database.db, question!.id)).toMatchObject([{ status: "delivered", deliveries: 3 }]);
    // The outbox's retries are one message to the receiver: one webhook-id, each try signed afresh.
    expect(new Set(receiver.received.map((webhook) => webhook.headers["webhook-id"]))).toEqual(new Set([`${question!.id}:question-opened`]));
    for (const webhook of receiver.received) expect(() => verifiedByStandardWebhooks(secret, webhook)).not.toThrow();
  });

  it("with no notifier configured, nothing is written", async () => {
    fixture = await createExampleFixture(kind, { announce: queueNoticesOnQuestionAsked({ baseUrl, notifiers: [] }) });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    expect(await listNoticesForQuestion(fixture.database.db, question!.id)).toEqual([]);
  });
});
