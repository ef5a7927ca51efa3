import type { Ask } from "@parleyhq/client";
import { askInputOf, idempotencyKeyOf, interruptLinkOf, personAnswerOf, personQuestion, resumeValueOf } from "@parleyhq/client/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";

describe("an interrupt's question", () => {
  it("built by askPerson's personQuestion is the API's request, a zod schema as JSON Schema", async () => {
    const question = await personQuestion({
      to: ["sam@parley.test"],
      title: "Deploy 4.2?",
      body: "The canary is green.",
      schema: z.object({ go: z.boolean().describe("Deploy now?") }),
      within: { hours: 1, minutes: 30 },
      metadata: { release: "4.2" },
    });
    expect(question).toEqual({
      to: ["sam@parley.test"],
      title: "Deploy 4.2?",
      body: "The canary is green.",
      response_schema: expect.objectContaining({ type: "object", properties: { go: expect.objectContaining({ type: "boolean", description: "Deploy now?" }) } }),
      due_in_seconds: 5400,
      metadata: { release: "4.2" },
    });
    // What the node pauses with is stored by the checkpointer: it must survive JSON.
    expect(JSON.parse(JSON.stringify(question))).toEqual(question);
  });

  it("becomes the client's ask input, the schema given to interrupt() used when the question has none", () => {
    const schema = { type: "object", properties: { go: { type: "boolean" } } };
    expect(askInputOf({ id: "a".repeat(32), value: { to: "sam@parley.test", title: "Go?", due_in_seconds: 60, attempts: 2 }, response_schema: schema })).toEqual({
      to: "sam@parley.test",
      title: "Go?",
      responseSchema: schema,
      within: { seconds: 60 },
      attempts: 2,
    });
  });

  it("may be a bare title, asked of the default recipient; without anyone to ask it is not asked", () => {
    expect(askInputOf({ id: "b".repeat(32), value: "Approve the refund?" }, "sam@parley.test")).toEqual({ to: "sam@parley.test", title: "Approve the refund?" });
    expect(askInputOf({ id: "b".repeat(32), value: "Approve the refund?" })).toBeUndefined();
    expect(askInputOf({ id: "c".repeat(32), value: { action: "refund", amount: 30 } }, "sam@parley.test")).toBeUndefined();
  });
});

describe("an interrupt's ask", () => {
  const link = { graph: "deploys", thread_id: "deploy-4.2", interrupt_id: "0123456789abcdef0123456789abcdef" };

  it("has the same Idempotency-Key every time, readable when it can be, hashed to the API's limits when not", async () => {
    expect(await idempotencyKeyOf(link)).toBe("langgraph:deploys:deploy-4.2:0123456789abcdef0123456789abcdef");
    const spaced = { ...link, thread_id: "a thread with spaces ".repeat(20) };
    const key = await idempotencyKeyOf(spaced);
    expect(key).toMatch(/^langgraph:sha256:[0-9a-f]{64}$/);
    expect(await idempotencyKeyOf(spaced)).toBe(key);
    expect(await idempotencyKeyOf({ ...spaced, interrupt_id: "f".repeat(32) })).not.toBe(key);
  });

  it("is found again from its metadata, and its outcome is the value the thread resumes with", () => {
    const base = { id: "ask_1", metadata: { release: "4.2", langgraph: link } } as const;
    expect(interruptLinkOf(base)).toEqual(link);
    expect(interruptLinkOf({ metadata: { release: "4.2" } })).toBeUndefined();

    const answered = { ...base, status: "answered", answer: { go: true } } as unknown as Ask;
    expect(resumeValueOf(answered)).toEqual({ ok: true, value: { go: true }, ask: answered });
    const declined = { ...base, status: "nothing", reason: "declined", note: "Ask Ada" } as unknown as Ask;
    expect(resumeValueOf(declined)).toEqual({ ok: false, reason: "declined", note: "Ask Ada", ask: declined });
    expect(resumeValueOf({ ...base, status: "open" } as unknown as Ask)).toBeUndefined();
  });

  it("a thread resumed by hand with a bare value reads as that answer", () => {
    expect(personAnswerOf("yes")).toEqual({ ok: true, value: "yes" });
    expect(personAnswerOf({ ok: false, reason: "expired" })).toEqual({ ok: false, reason: "expired" });
  });
});
