import { createParleyClient } from "@parleyhq/client";
import { askPersonTool, isWaitingForPerson, resolvePersonAnswers } from "@parleyhq/client/ai";
import { verifyWebhook } from "@parleyhq/client/webhooks";
import { generateText, type ModelMessage, stepCountIs } from "ai";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";

import { callTool, say, scriptedModel, toolResultIn } from "./support/ai-sdk-scripted-model";
import { until } from "../faults/support/until";
import { startTestParley, type TestParley } from "./support/parley";

// The AI SDK with its own mock model, against a real Parley; Sam answers over the person API.

let parley: TestParley;
beforeAll(async () => {
  parley = await startTestParley(3440, "ai-sdk-ask-person");
}, 180_000);
afterAll(async () => {
  await parley?.close();
});

const client = () => createParleyClient({ baseUrl: parley.baseUrl, apiKey: parley.apiKey, pollSeconds: 5 });
const prompt: ModelMessage[] = [{ role: "user", content: "Ship the release notes for 4.2." }];

test("the agent's question reaches Sam at once, and after a Parley restart his answer is the tool's result on the next step", async () => {
  const { model, prompts } = scriptedModel([
    () => [callTool("call-tone-1", "askPerson", { question: "Which tone for the 4.2 notes?", details: "Customers read them.", choices: ["Formal", "Playful"] })],
    () => [say("Writing them in the playful tone.")],
  ]);
  const tools = { askPerson: askPersonTool({ client: client(), to: "sam@parley.test" }) };

  const started = Date.now();
  const first = await generateText({ model, tools, messages: prompt, stopWhen: [stepCountIs(5), isWaitingForPerson()] });
  expect(Date.now() - started).toBeLessThan(10_000); // the ticket comes back at once, no request held
  expect(first.steps).toHaveLength(1);
  const ticket = first.toolResults[0]?.output;
  expect(ticket).toMatchObject({ kind: "parley-ask", status: "waiting", to: "sam@parley.test", choices: ["Formal", "Playful"] });
  // The conversation is stored as JSON, as an app keeps it between requests.
  const stored = JSON.stringify([...prompt, ...first.response.messages]);

  const question = await parley.questionForSam("Which tone for the 4.2 notes?");
  expect(question.id).toBe((ticket as { questionId: string }).questionId);
  await parley.restart();
  const parked = await resolvePersonAnswers(JSON.parse(stored) as ModelMessage[], { client: client() });
  expect(parked.waiting).toHaveLength(1);
  expect(parked.settled).toHaveLength(0);

  const spec = await parley.questionSpec(question.id);
  await parley.answerAsSam(question.id, { [spec.spec.fields[0]!.path]: "Playful" });

  const resolved = await resolvePersonAnswers(JSON.parse(stored) as ModelMessage[], { client: client(), wait: 20 });
  expect(resolved.waiting).toHaveLength(0);
  const second = await generateText({ model, tools, messages: resolved.messages, stopWhen: [stepCountIs(5), isWaitingForPerson()] });
  expect(second.text).toBe("Writing them in the playful tone.");
  expect(toolResultIn(prompts()[1], "call-tone-1")).toEqual({
    type: "json",
    value: { kind: "parley-ask", status: "answered", ok: true, askId: (ticket as { askId: string }).askId, answer: "Playful", answeredBy: expect.stringContaining("sam@parley.test") },
  });
});

test("a question Sam declines comes back to the model as ok: false with the reason and his note", async () => {
  const { model, prompts } = scriptedModel([
    () => [callTool("call-budget-1", "askPerson", { question: "What is the Q3 marketing budget?" })],
    () => [say("I will go ahead without the budget.")],
  ]);
  const tools = { askPerson: askPersonTool({ client: client(), to: "sam@parley.test" }) };
  const first = await generateText({ model, tools, messages: prompt, stopWhen: [stepCountIs(5), isWaitingForPerson()] });
  const question = await parley.questionForSam("What is the Q3 marketing budget?");
  await parley.declineAsSam(question.id, "Finance owns that, ask Kim.");

  const resolved = await resolvePersonAnswers([...prompt, ...first.response.messages], { client: client(), wait: 20 });
  await generateText({ model, tools, messages: resolved.messages });
  const output = toolResultIn(prompts()[1], "call-budget-1");
  expect(output).toMatchObject({ type: "json", value: { status: "nothing", ok: false, reason: "declined", note: "Finance owns that, ask Kim." } });
  expect((output as unknown as { value: { message: string } }).value.message).toContain('declined to answer, writing: "Finance owns that, ask Kim."');
});

test("the same step run again gets the same ask back and Sam is asked once", async () => {
  const script = () => [callTool("call-window-1", "askPerson", { question: "May the migration run tonight?" })];
  const tools = { askPerson: askPersonTool({ client: client(), to: "sam@parley.test" }) };
  const once = await generateText({ model: scriptedModel([script]).model, tools, messages: prompt, stopWhen: isWaitingForPerson() });
  const again = await generateText({ model: scriptedModel([script]).model, tools, messages: prompt, stopWhen: isWaitingForPerson() });

  expect((again.toolResults[0]?.output as { askId: string }).askId).toBe((once.toolResults[0]?.output as { askId: string }).askId);
  const asked = (await parley.questionsForSam()).filter((question) => question.title === "May the migration run tonight?");
  expect(asked).toHaveLength(1);
});

test("an app woken by Parley's webhook finds the conversation by its metadata and resumes it without waiting", async () => {
  const conversations = new Map<string, ModelMessage[]>();
  const resumed: Promise<string>[] = [];
  const { model } = scriptedModel([() => [callTool("call-hook-1", "askPerson", { question: "Which customer gets the beta first?" })], () => [say("Inviting Acme first.")]]);
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.end();
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      resumed.push(
        (async () => {
          const event = await verifyWebhook({ secret: parley.webhookSecret, headers, body: Buffer.concat(chunks).toString("utf8") });
          if (event.type !== "ask.answered" && event.type !== "ask.nothing") return "ignored";
          const id = event.data.metadata?.conversation as string;
          const { messages } = await resolvePersonAnswers(conversations.get(id)!, { client: client() }); // wait 0: only looks
          return (await generateText({ model, tools: toolsFor(id), messages })).text;
        })(),
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/parley`;
  const toolsFor = (conversation: string) => ({ askPerson: askPersonTool({ client: client(), to: "sam@parley.test", callbackUrl, metadata: { conversation } }) });
  try {
    const first = await generateText({ model, tools: toolsFor("conv-7"), messages: prompt, stopWhen: isWaitingForPerson() });
    conversations.set("conv-7", [...prompt, ...first.response.messages]);
    const question = await parley.questionForSam("Which customer gets the beta first?");
    await parley.answerAsSam(question.id, { [(await parley.questionSpec(question.id)).spec.fields[0]!.path]: "Acme" });
    await until("the webhook arrived", () => resumed.length > 0, { timeoutMs: 30_000 });
    expect(await resumed[0]).toBe("Inviting Acme first.");
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
