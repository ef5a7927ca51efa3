import { createParleyClient } from "@parleyhq/client";
import { createParleyInterrupts } from "@parleyhq/client/langgraph";
import { afterAll, beforeAll, expect, test } from "vitest";

import { deployGraph, finishDeploy, interruptsFor, startDeploy } from "../../examples/agent-frameworks/langgraph/deploy-approval";
import { until } from "../faults/support/until";
import { offsiteGraph, postgresCheckpointer } from "./support/langgraph-graphs";
import { startTestParley, type TestParley } from "./support/parley";

// LangGraph JS with its PostgreSQL checkpointer on Parley's own database, against a real Parley; the
// answers come back by long-poll. Sam answers over the person API.

let parley: TestParley;
const closing: (() => Promise<void>)[] = [];
beforeAll(async () => {
  parley = await startTestParley(3441, "langgraph-long-poll");
}, 180_000);
afterAll(async () => {
  for (const close of closing) await close().catch(() => {});
  await parley?.close();
});

const connection = () => ({ baseUrl: parley.baseUrl, apiKey: parley.apiKey });

async function checkpointer() {
  const saver = await postgresCheckpointer(parley.database.url);
  closing.push(() => saver.end());
  return saver;
}

test("the graph's question reaches Sam with one question per schema field, and his answer resumes the thread typed", async () => {
  const graph = deployGraph(await checkpointer());
  const interrupts = interruptsFor(graph, connection());
  const { asks } = await startDeploy(graph, interrupts, "4.2");
  expect(asks).toHaveLength(1);
  // Asking again makes no second question.
  expect((await interrupts.askPending("deploy-4.2")).asks).toEqual([expect.objectContaining({ interruptId: asks[0]!.interruptId, created: false })]);

  const question = await parley.questionForSam("Deploy 4.2?");
  expect(question.id).toBe(asks[0]!.ask.question_id);
  const { spec } = await parley.questionSpec(question.id);
  expect(spec.fields.map((field) => [field.path, field.kind])).toEqual([
    ["go", "boolean"],
    ["window_hours", "integer"],
  ]);
  await parley.answerAsSam(question.id, { go: "yes", window_hours: "3" });

  expect(await finishDeploy(interrupts, "4.2")).toEqual({ release: "4.2", outcome: "deploying within 3 h" });
  expect((await parley.questionsForSam()).filter((open) => open.title === "Deploy 4.2?")).toEqual([]);
});

test("after Parley and the agent both restart while the thread is parked, a new graph and checkpointer resume it with Sam's answer", async () => {
  const before = await postgresCheckpointer(parley.database.url);
  const firstGraph = deployGraph(before);
  await startDeploy(firstGraph, interruptsFor(firstGraph, connection()), "4.3");
  await before.end(); // the agent's process goes away

  await parley.restart();
  const question = await parley.questionForSam("Deploy 4.3?");
  await parley.answerAsSam(question.id, { go: "no", window_hours: "1" });

  const graph = deployGraph(await checkpointer());
  expect(await finishDeploy(interruptsFor(graph, connection()), "4.3")).toEqual({ release: "4.3", outcome: "held by Sam" });
});

test("when Sam declines, the thread resumes with ok: false and the reason, and the graph takes its other branch", async () => {
  const graph = deployGraph(await checkpointer());
  const interrupts = interruptsFor(graph, connection());
  await startDeploy(graph, interrupts, "4.4");
  const question = await parley.questionForSam("Deploy 4.4?");
  await parley.declineAsSam(question.id, "Ask Ada, I am on leave.");

  expect(await finishDeploy(interrupts, "4.4")).toEqual({ release: "4.4", outcome: "held: nobody answered (declined)" });
});

test("two questions open at once, answered in the opposite order, each resume the thread as it comes and both reach the graph", async () => {
  const graph = offsiteGraph(await checkpointer());
  const interrupts = createParleyInterrupts({ graph, parley: createParleyClient({ ...connection(), pollSeconds: 5 }) });
  const config = { configurable: { thread_id: "offsite-2026" } };
  await graph.invoke({}, config);
  const { asks } = await interrupts.askPending(config);
  expect(asks.map(({ ask }) => ask.title).sort()).toEqual(["Offsite budget?", "Offsite venue?"]);

  const settled = interrupts.resumeWhenAnswered(config);
  const venue = await parley.questionForSam("Offsite venue?");
  await parley.answerAsSam(venue.id, { [(await parley.questionSpec(venue.id)).spec.fields[0]!.path]: "Lisbon" });
  // The venue's answer alone resumes the thread; the budget's question stays open and pending.
  await until("the venue's answer is in the thread", async () => ((await graph.getState(config)).values.venue ? true : undefined), { timeoutMs: 30_000 });
  expect((await graph.getState(config)).values).toEqual({ venue: expect.objectContaining({ ok: true, value: "Lisbon" }) });
  expect((await interrupts.askPending(config)).asks.map(({ ask }) => [ask.title, ask.status])).toEqual([["Offsite budget?", "open"]]);

  const budget = await parley.questionForSam("Offsite budget?");
  await parley.answerAsSam(budget.id, { euros: "12000", catering: "no" });
  const { values, unasked } = await settled;
  expect(unasked).toEqual([]);
  expect(values).toMatchObject({ plan: "Lisbon, 12000 euros, without catering", budget: { ok: true, value: { euros: 12000, catering: false } } });
});

test("two answers resumed at the same moment both reach the graph: resumes of one thread take turns", async () => {
  const graph = offsiteGraph(await checkpointer());
  const parleyClient = createParleyClient(connection());
  const interrupts = createParleyInterrupts({ graph, parley: parleyClient });
  const config = { configurable: { thread_id: "offsite-2027" } };
  await graph.invoke({}, config);
  const { asks } = await interrupts.askPending(config);
  const venue = asks.find(({ ask }) => ask.title === "Offsite venue?")!;
  const budget = asks.find(({ ask }) => ask.title === "Offsite budget?")!;
  await parley.answerAsSam(venue.ask.question_id, { [(await parley.questionSpec(venue.ask.question_id)).spec.fields[0]!.path]: "Porto" });
  await parley.answerAsSam(budget.ask.question_id, { euros: "9000", catering: "yes" });

  const outcomes = await Promise.all([interrupts.resume(await parleyClient.getAsk(venue.ask.id)), interrupts.resume(await parleyClient.getAsk(budget.ask.id))]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["resumed", "resumed"]);
  expect((await graph.getState(config)).values).toMatchObject({ plan: "Porto, 9000 euros, with catering" });
});

test("two processes resuming one step's two answers at the same moment still carry the thread on", async () => {
  const parleyClient = createParleyClient(connection());
  const processes = await Promise.all([checkpointer(), checkpointer()]).then((savers) =>
    savers.map((saver) => {
      const graph = offsiteGraph(saver);
      return { graph, interrupts: createParleyInterrupts({ graph, parley: parleyClient }) };
    }),
  );
  const config = { configurable: { thread_id: "offsite-2028" } };
  await processes[0]!.graph.invoke({}, config);
  const { asks } = await processes[0]!.interrupts.askPending(config);
  const venue = asks.find(({ ask }) => ask.title === "Offsite venue?")!;
  const budget = asks.find(({ ask }) => ask.title === "Offsite budget?")!;
  await parley.answerAsSam(venue.ask.question_id, { [(await parley.questionSpec(venue.ask.question_id)).spec.fields[0]!.path]: "Faro" });
  await parley.answerAsSam(budget.ask.question_id, { euros: "7000", catering: "no" });

  await Promise.all([processes[0]!.interrupts.resume(await parleyClient.getAsk(venue.ask.id)), processes[1]!.interrupts.resume(await parleyClient.getAsk(budget.ask.id))]);
  expect((await processes[0]!.graph.getState(config)).values).toMatchObject({ plan: "Faro, 7000 euros, without catering" });
});
