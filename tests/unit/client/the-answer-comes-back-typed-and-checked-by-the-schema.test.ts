import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { createParleyClient, type NothingReason, ParleyAnswerError } from "@parleyhq/client";
import { answeredJson, askJson, type FakeParley, json, startFakeParley } from "./fake-parley";

// The value `ask` resolves with is the schema's output — parsed again here, so transforms apply and a
// check JSON Schema cannot carry (a refine) still judges it — or the person's text without a schema;
// nobody answering is `{ ok: false, reason }`, from the create itself when it closed at once.

let fake: FakeParley | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A fake that makes the ask open and answers the first long-poll with `final`. */
async function answering(final: unknown) {
  fake = await startFakeParley((request, response) => json(response, request.method === "POST" ? 201 : 200, request.method === "POST" ? askJson() : final));
  return createParleyClient({ baseUrl: fake.url, apiKey: "pk_test", pollSeconds: 1 });
}

describe("the answer", () => {
  it("is the schema's output: parsed by it, transforms and defaults applied", async () => {
    const Window = z.object({
      hours: z.int().min(1).describe("Hours?"),
      note: z
        .string()
        .transform((text) => text.toUpperCase())
        .describe("Note"),
      notify: z.boolean().default(false),
    });
    const parley = await answering(answeredJson({ hours: 3, note: "after lunch" }));
    const answer = await parley.ask({ to: "sam@parley.test", title: "When?", schema: Window });
    expectTypeOf(answer).toExtend<{ ok: true; value: { hours: number; note: string; notify: boolean } } | { ok: false; reason: NothingReason }>();
    expect(answer).toMatchObject({ ok: true, value: { hours: 3, note: "AFTER LUNCH", notify: false } });
    if (answer.ok) expect(answer.ask.answered_by).toEqual({ email: "sam@parley.test", name: "Sam Rivera" });
  });

  it("that Parley accepted but the schema's own refine refuses throws ParleyAnswerError with the issues", async () => {
    const Pair = z.object({ low: z.int(), high: z.int() }).refine((pair) => pair.low < pair.high, { message: "low must be under high", path: ["high"] });
    const parley = await answering(answeredJson({ low: 5, high: 2 }));
    const error = await parley.ask({ to: "sam@parley.test", title: "Range?", schema: Pair }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ParleyAnswerError);
    expect(error).toMatchObject({ answer: { low: 5, high: 2 }, issues: [expect.objectContaining({ message: "low must be under high" })] });
    expect((error as Error).message).toContain("high: low must be under high");
  });

  it("without a schema is the person's text, a string", async () => {
    const parley = await answering(answeredJson("Faster invoices."));
    const answer = await parley.ask({ to: "sam@parley.test", title: "What should the release note say?" });
    expectTypeOf(answer).toExtend<{ ok: true; value: string } | { ok: false; reason: NothingReason }>();
    expect(answer).toMatchObject({ ok: true, value: "Faster invoices." });
  });

  it("with a JSON Schema instead of zod is the object it accepted", async () => {
    const parley = await answering(answeredJson({ decision: "approve" }));
    const answer = await parley.ask({ to: "sam@parley.test", title: "Deploy?", responseSchema: { type: "object", properties: { decision: { enum: ["approve", "reject"] } }, required: ["decision"] } });
    expectTypeOf(answer).toExtend<{ ok: true; value: Record<string, unknown> } | { ok: false; reason: NothingReason }>();
    expect(answer).toMatchObject({ ok: true, value: { decision: "approve" } });
  });
});

describe("nobody answering", () => {
  it("is { ok: false, reason } from the create itself when the person is away: no long-poll", async () => {
    fake = await startFakeParley((request, response) => json(response, 201, askJson({ status: "nothing", reason: "away", answered_at: "2026-12-04T09:00:00.000Z" })));
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test" });
    await expect(parley.ask({ to: "cy@parley.test", title: "Approve?", schema: z.object({ ok: z.boolean() }) })).resolves.toMatchObject({ ok: false, reason: "away" });
    expect(fake.received).toHaveLength(1);
  });

  it("is { ok: false, reason } when the wait ends with nothing (expired)", async () => {
    const parley = await answering(askJson({ status: "nothing", reason: "expired" }));
    await expect(parley.ask({ to: "sam@parley.test", title: "Approve?", within: { minutes: 5 } })).resolves.toMatchObject({ ok: false, reason: "expired" });
  });
});
