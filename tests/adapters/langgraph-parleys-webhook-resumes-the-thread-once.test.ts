import { createParleyClient } from "@parleyhq/client";
import { createParleyInterrupts, type ResumeOutcome } from "@parleyhq/client/langgraph";
import { afterAll, beforeAll, expect, test } from "vitest";

import { until } from "../faults/support/until";
import { type Delivery, keyRotationGraph, postgresCheckpointer, startWebhookReceiver } from "./support/langgraph-graphs";
import { startTestParley, type TestParley } from "./support/parley";

// LangGraph JS with its PostgreSQL checkpointer, resumed by Parley's signed callbacks to a loopback
// receiver: the agent that started the thread is gone; the web process only has the webhook.

let parley: TestParley;
const closing: (() => Promise<void>)[] = [];
beforeAll(async () => {
  parley = await startTestParley(3441, "langgraph-webhook");
}, 180_000);
afterAll(async () => {
  for (const close of closing) await close().catch(() => {});
  await parley?.close();
});

/** The web process: a graph on its own checkpointer, resuming from the webhooks it receives. */
async function webProcess() {
  const checkpointer = await postgresCheckpointer(parley.database.url);
  const runs = { after: 0 };
  const graph = keyRotationGraph(checkpointer, runs);
  // Deliveries arrive only once asks name the receiver, after `interrupts` exists.
  const receiver = await startWebhookReceiver((delivery: Delivery) => interrupts.handleWebhook(delivery));
  const interrupts = createParleyInterrupts({
    graph,
    parley: createParleyClient({ baseUrl: parley.baseUrl, apiKey: parley.apiKey }),
    callbackUrl: receiver.url,
    webhookSecret: parley.webhookSecret,
  });
  closing.push(receiver.close, () => checkpointer.end());
  return { graph, runs, receiver, interrupts };
}

/** The agent's process: starts the thread, asks, and goes away. */
async function startRotation(threadId: string, callbackUrl: string) {
  const checkpointer = await postgresCheckpointer(parley.database.url);
  const graph = keyRotationGraph(checkpointer, { after: 0 });
  const config = { configurable: { thread_id: threadId } };
  await graph.invoke({}, config);
  const pending = await createParleyInterrupts({ graph, parley: createParleyClient({ baseUrl: parley.baseUrl, apiKey: parley.apiKey }), callbackUrl }).askPending(config);
  await checkpointer.end();
  return pending;
}

const resumed = (web: Awaited<ReturnType<typeof webProcess>>, count: number) =>
  until(`${count} resumes have come in by webhook`, () => web.receiver.outcomes.filter((outcome) => (outcome as ResumeOutcome).status === "resumed").length >= count || undefined, { timeoutMs: 30_000 });

test("Sam's answers, posted by Parley to the web process's webhook, resume the thread — through a Parley restart — and each next question is asked from there", async () => {
  const web = await webProcess();
  const { asks } = await startRotation("rotation-1", web.receiver.url);
  expect(asks.map(({ ask }) => ask.title)).toEqual(["Rotate the signing keys?"]);

  await parley.restart();
  const first = await parley.questionForSam("Rotate the signing keys?");
  await parley.answerAsSam(first.id, { rotate: "yes" });
  await resumed(web, 1);
  // The node's second question was asked by the web process, after the resume.
  const second = await parley.questionForSam("Who should hear about the rotation?");
  await parley.answerAsSam(second.id, { [(await parley.questionSpec(second.id)).spec.fields[0]!.path]: "the security list" });
  await resumed(web, 2);

  expect((await web.graph.getState({ configurable: { thread_id: "rotation-1" } })).values).toEqual({
    rotate: true,
    notify: "the security list",
    done: "rotated; told the security list",
  });
  expect(web.runs.after).toBe(1);
});

test("a webhook delivered twice resumes the thread once: the repeat answers nothing, not even the node's next question", async () => {
  const web = await webProcess();
  await startRotation("rotation-2", web.receiver.url);
  const first = await parley.questionForSam("Rotate the signing keys?");
  await parley.answerAsSam(first.id, { rotate: "no" });
  await resumed(web, 1);
  const second = await parley.questionForSam("Who should hear about the rotation?");
  const config = { configurable: { thread_id: "rotation-2" } };
  const before = await web.graph.getState(config);

  // The same signed request again, as Parley sends it after a lost 2xx.
  const repeat = await web.interrupts.handleWebhook(web.receiver.deliveries[0]!);
  expect(repeat).toMatchObject({ status: "not-pending", threadId: "rotation-2", asks: [{ ask: { question_id: second.id, status: "open" } }] });
  expect((await web.graph.getState(config)).values).toEqual(before.values);
  expect((await parley.questionsForSam()).map((question) => question.id)).toContain(second.id);

  await parley.declineAsSam(second.id);
  await resumed(web, 2);
  expect((await web.graph.getState(config)).values).toMatchObject({ rotate: false, done: "kept; told nobody (declined)" });
  expect(web.runs.after).toBe(1);
});

test("a webhook that Parley did not sign resumes nothing", async () => {
  const web = await webProcess();
  const forged = { headers: { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" }, body: "{}" };
  await expect(web.interrupts.handleWebhook(forged)).rejects.toMatchObject({ name: "ParleyWebhookError", reason: "mismatch" });
});
