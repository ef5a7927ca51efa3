import { afterEach, describe, expect, it } from "vitest";
import { ApiAsk } from "@/lib/asks/api-ask-workflow";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, startReceiver, verifiedEvent } from "./ask-events-support";

describe.each(DATABASE_KINDS)("an API ask whose run an operator cancels, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  it("reads nothing, reason cancelled, to its caller — GET and the ask.nothing webhook at its callback_url", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Approve the invoice?", callback_url: receiver.url });
    expect(ask.status).toBe("open");

    // An API ask's task is its ask.
    await fixture.runtime.cancelRun(ApiAsk, ask.id, { by: fixture.olive.id });

    const view = await fixture.service.get(fixture.key, ask.id);
    expect(view).toMatchObject({ status: "nothing", reason: "cancelled", answer: null, answered_by: null });
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toEqual([]);
    expect(await askEventDrainer(fixture).drainOnce()).toBe(1);
    const event = verifiedEvent(fixture.key.webhookSecret!, receiver.received[0]!);
    expect(event).toEqual({ type: "ask.nothing", timestamp: view.answered_at, data: view });
  });
});
