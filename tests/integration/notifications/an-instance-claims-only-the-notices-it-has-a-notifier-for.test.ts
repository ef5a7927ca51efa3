import { afterEach, describe, expect, it } from "vitest";
import { listNoticesForQuestion } from "@/db/queries/notification-outbox";
import { createOutboxDrainer, queueNoticesOnQuestionAsked } from "@/lib/notifications/outbox";
import type { DeliveryReport, Notifier, QuestionNotice } from "@/lib/notifiers";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

/** A notifier that accepts everything and remembers what it was handed. */
function recordingNotifier(name: string): Notifier & { notices: QuestionNotice[] } {
  const notices: QuestionNotice[] = [];
  return {
    name,
    notices,
    async notify(notice): Promise<DeliveryReport> {
      notices.push(notice);
      return { notifier: name, status: "delivered", attempts: [{ attempt: 1, outcome: "accepted", durationMs: 0 }] };
    },
  };
}

describe.each(DATABASE_KINDS)("instances with different notifiers sharing one outbox (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("an instance without email leaves the email notices to one that has it, instead of failing them", async () => {
    const webhook = recordingNotifier("webhook");
    const email = recordingNotifier("email");
    fixture = await createExampleFixture(kind, { announce: queueNoticesOnQuestionAsked({ baseUrl: "https://parley.example.test", notifiers: [webhook, email] }) });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);

    const webhookOnly = createOutboxDrainer({ db: fixture.database.db, notifiers: [webhook] });
    expect(await webhookOnly.drainOnce()).toBe(1);
    expect(await webhookOnly.drainOnce()).toBe(0);
    expect(await listNoticesForQuestion(fixture.database.db, question!.id)).toMatchObject([
      { notifier: "webhook", status: "delivered" },
      { notifier: "email", status: "queued", deliveries: 0 },
    ]);

    expect(await createOutboxDrainer({ db: fixture.database.db, notifiers: [email] }).drainOnce()).toBe(1);
    expect(email.notices).toHaveLength(1);
    expect(await listNoticesForQuestion(fixture.database.db, question!.id)).toMatchObject([
      { notifier: "webhook", status: "delivered" },
      { notifier: "email", status: "delivered", deliveries: 1 },
    ]);
  });
});
