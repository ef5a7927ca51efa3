import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/client";
import { createOutboxDrainer, type EventTarget, queueNoticesOnQuestionAsked } from "@/lib/notifications/outbox";
import type { DeliveryReport, Notifier, QuestionNotice } from "@/lib/notifiers";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

/** An email notifier that accepts every notice (a little slowly, as SMTP is) and remembers it. */
function email(): Notifier & { notices: QuestionNotice[] } {
  const notices: QuestionNotice[] = [];
  return {
    name: "email",
    notices,
    async notify(notice): Promise<DeliveryReport> {
      await new Promise((resolve) => setTimeout(resolve, 5));
      notices.push(notice);
      return { notifier: "email", status: "delivered", attempts: [{ attempt: 1, outcome: "accepted", statusCode: 250, durationMs: 5 }] };
    },
  };
}

/** The ask-callback target every instance has (callbacks need no configuration): it is never handed a notice. */
const callbacks: EventTarget = { name: "callback", deliver: async () => ({ notifier: "callback", status: "delivered", attempts: [] }) };

const QUESTIONS = 6;

describe.each(DATABASE_KINDS)("a rolling deploy: two instances on one database, only one with SMTP (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("delivers every email through the instance that has SMTP, and the other fails none", async () => {
    const mailer = email();
    fixture = await createExampleFixture(kind, { announce: queueNoticesOnQuestionAsked({ baseUrl: "https://parley.example.test", notifiers: [mailer] }) });
    for (let index = 0; index < QUESTIONS; index++) await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const { db } = fixture.database;

    // Both instances drain the one outbox at once, in small batches, as their loops do.
    const withSmtp = createOutboxDrainer({ db, notifiers: [mailer], targets: [callbacks], batchSize: 2 }).start({ intervalMs: 5 });
    const withoutSmtp = createOutboxDrainer({ db, notifiers: [], targets: [callbacks], batchSize: 2 }).start({ intervalMs: 5 });
    const statuses = async () =>
      (await queryRows<{ status: string; count: number | string }>(db, sql`select status, count(*) as count from notification_outbox where notifier = 'email' group by status order by status`)).map(
        (row) => [row.status, Number(row.count)],
      );
    try {
      await expect.poll(statuses, { timeout: 20_000 }).toEqual([["delivered", QUESTIONS]]);
    } finally {
      await Promise.all([withSmtp.stop(), withoutSmtp.stop()]);
    }
    expect(new Set(mailer.notices.map((notice) => notice.id)).size).toBe(QUESTIONS);
  });
});
