import { createParleyClient } from "@parleyhq/client";
import { type PersonTicket, resolvePersonAnswers } from "@parleyhq/client/ai";
import type { ModelMessage } from "ai";
import { expect, test } from "vitest";

const ticket = (askId: string): PersonTicket => ({ kind: "parley-ask", status: "waiting", askId, questionId: `q-${askId}`, url: "http://parley.test/q", to: "sam@parley.test", message: "Asked." });

/** A client whose fetch answers `GET /asks/{id}` from `asks`. */
function clientWith(asks: Record<string, Record<string, unknown>>) {
  return createParleyClient({
    baseUrl: "http://parley.test",
    apiKey: "pk_test",
    fetch: async (url) => {
      const id = decodeURIComponent(new URL(String(url)).pathname.split("/").at(-1)!);
      return new Response(JSON.stringify({ id, question_id: `q-${id}`, answered_by: null, declined_by: null, note: null, answer: null, reason: null, ...asks[id] }), { headers: { "content-type": "application/json" } });
    },
  });
}

function conversation(...tickets: PersonTicket[]): ModelMessage[] {
  return [
    { role: "user", content: "Go." },
    { role: "assistant", content: tickets.map((each, index) => ({ type: "tool-call" as const, toolCallId: `call-${index}`, toolName: "askPerson", input: { question: "?" } })) },
    { role: "tool", content: tickets.map((each, index) => ({ type: "tool-result" as const, toolCallId: `call-${index}`, toolName: "askPerson", output: { type: "json" as const, value: { ...each } } })) },
  ];
}

test("an answered ticket becomes the answer in place, an open one stays, and the messages given are left as they were", async () => {
  const messages = conversation(ticket("a1"), ticket("a2"));
  const before = JSON.stringify(messages);
  const client = clientWith({ a1: { status: "answered", answer: "Ship it", answered_by: { name: "Sam Rivera", email: "sam@parley.test" } }, a2: { status: "open" } });

  const resolved = await resolvePersonAnswers(messages, { client });
  expect(JSON.stringify(messages)).toBe(before);
  expect(resolved.messages).toHaveLength(3);
  expect(resolved.waiting.map((each) => each.askId)).toEqual(["a2"]);
  const results = (resolved.messages[2] as { content: { output: { value: unknown } }[] }).content.map((part) => part.output.value);
  expect(results[0]).toEqual({ kind: "parley-ask", status: "answered", ok: true, askId: "a1", answer: "Ship it", answeredBy: "Sam Rivera <sam@parley.test>" });
  expect(results[1]).toMatchObject({ status: "waiting", askId: "a2" });
});

test.each([
  ["expired", "Nobody answered before the deadline; the question expired."],
  ["away", "sam@parley.test is away and cannot answer now."],
  ["cancelled", "The question was withdrawn before anyone answered."],
  ["refused", "The answers given kept breaking the question's rules, so the question closed without an answer."],
  ["declined", "sam@parley.test declined to answer, without saying why."],
])("nobody answering (%s) reads as ok: false with the reason in words", async (reason, words) => {
  const resolved = await resolvePersonAnswers(conversation(ticket("n1")), { client: clientWith({ n1: { status: "nothing", reason } }) });
  expect(resolved.settled).toEqual([{ kind: "parley-ask", status: "nothing", ok: false, askId: "n1", reason, message: `${words} Carry on without their answer.` }]);
});

test("an answer picked among the model's choices comes back as the choice itself", async () => {
  const resolved = await resolvePersonAnswers(conversation({ ...ticket("c1"), choices: ["Formal", "Playful"] }), { client: clientWith({ c1: { status: "answered", answer: { choice: "Formal" } } }) });
  expect(resolved.settled[0]).toMatchObject({ ok: true, answer: "Formal", answeredBy: null });
});
