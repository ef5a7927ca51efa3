import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { listNoticesForQuestion } from "@/db/queries/notification-outbox";
import { createOutboxDrainer, queueNoticesOnQuestionAsked, remindAboutQuestion } from "@/lib/notifications/outbox";
import { createEmailNotifier, createWebhookNotifier, newWebhookSecret } from "@/lib/notifiers";
import { tasks } from "@/lib/registry";
import { answerOf, defineWorkflow, person } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { parseMail } from "../notifiers/support/mime";
import { startSmtpSink } from "../notifiers/support/smtp-sink";
import { verifiedByStandardWebhooks } from "../notifiers/support/standard-webhooks";
import { startWebhookReceiver } from "../notifiers/support/webhook-receiver";
import { createRuntimeFixture, type RuntimeFixture } from "../runtime/fixture-workflow";

const Note = z.object({ note: z.string().describe("Anything to add?") }).meta({ title: "A note" });

/** Asks the task's starter one question with no deadline (no `within`). */
const AskWithoutDeadline = defineWorkflow({
  name: "AskWithoutDeadline",
  tracks: tasks,
  initial: "Asking",
  events: { Noted: answerOf(Note) },
  states: {
    Asking: {
      async enter(run) {
        await person.ask(run, "Noted", { to: run.item.createdBy! });
        return undefined;
      },
      on: { Noted: (run) => run.goto("Done") },
    },
    Done: { terminal: "success" },
  },
});

const secret = newWebhookSecret();

describe.each(DATABASE_KINDS)("a question with no deadline (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    await fixture?.database.close();
    fixture = undefined;
  });

  it("is emailed and webhooked like any other, saying plainly that it has no deadline", async () => {
    const sink = await startSmtpSink();
    const receiver = await startWebhookReceiver(() => ({ status: 204 }));
    closing.push(() => sink.close(), () => receiver.close());
    const notifiers = [
      createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from: "Parley <parley@example.com>" }),
      createWebhookNotifier({ url: receiver.url, secret }),
    ];
    fixture = await createRuntimeFixture(kind, { workflows: [AskWithoutDeadline], announce: queueNoticesOnQuestionAsked({ baseUrl: "https://parley.example.test", notifiers }) });
    await fixture.startTask(AskWithoutDeadline, "Office plants");
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(question).toBeDefined();

    expect(await createOutboxDrainer({ db: fixture.database.db, notifiers }).drainOnce()).toBe(2);
    expect(await listNoticesForQuestion(fixture.database.db, question!.id)).toMatchObject([
      { notifier: "email", status: "delivered" },
      { notifier: "webhook", status: "delivered" },
    ]);
    const { text } = parseMail(sink.messages[0]!.data);
    expect(text).toContain("There is no deadline: answer when you can.");
    expect(text).not.toContain("Answer by");
    expect(verifiedByStandardWebhooks(secret, receiver.received[0]!)).toMatchObject({ type: "question.opened", data: { id: question!.id, due_at: null } });
  });

  it("is reminded through the notifiers too, not only in the app", async () => {
    const notices: unknown[] = [];
    const notifier = { name: "recording", notify: async (notice: unknown) => (notices.push(notice), { notifier: "recording", status: "delivered" as const, attempts: [] }) };
    fixture = await createRuntimeFixture(kind, { workflows: [AskWithoutDeadline] });
    await fixture.startTask(AskWithoutDeadline, "Office plants");
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const reminded = await remindAboutQuestion(fixture.database.db, question!.id, { baseUrl: "https://parley.example.test", notifiers: [notifier], at: new Date() });
    expect(reminded).toMatchObject({ status: "reminded", deliveries: 1 });
    expect(await createOutboxDrainer({ db: fixture.database.db, notifiers: [notifier] }).drainOnce()).toBe(1);
    expect(notices).toMatchObject([{ kind: "reminder", id: question!.id, dueAt: null }]);
  });
});
