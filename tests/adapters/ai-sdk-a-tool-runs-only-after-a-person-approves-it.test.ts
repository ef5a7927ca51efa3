import { createParleyClient } from "@parleyhq/client";
import { askForApprovals, resolveApprovals } from "@parleyhq/client/ai";
import { generateText, type ModelMessage, tool } from "ai";
import { afterAll, beforeAll, expect, test } from "vitest";
import { z } from "zod";

import { releaseAgent } from "../../examples/agent-frameworks/ai-sdk/release-agent";
import { callTool, say, scriptedModel, toolResultIn } from "./support/ai-sdk-scripted-model";
import { until } from "../faults/support/until";
import { startTestParley, type TestParley } from "./support/parley";

// The AI SDK's tool approvals (needsApproval) decided by Sam in Parley: a real Parley, the SDK's own mock model.

let parley: TestParley;
beforeAll(async () => {
  parley = await startTestParley(3440, "ai-sdk-approvals");
}, 180_000);
afterAll(async () => {
  await parley?.close();
});

const client = () => createParleyClient({ baseUrl: parley.baseUrl, apiKey: parley.apiKey, pollSeconds: 5 });
const approver = () => ({ client: client(), to: "sam@parley.test" });

/** A tool that needs approval and records each time it really runs. */
function deployTool() {
  const ran: { version: string }[] = [];
  const deploy = tool({
    description: "Deploy a version to production.",
    inputSchema: z.object({ version: z.string() }),
    needsApproval: true,
    execute: async (input: { version: string }) => {
      ran.push(input);
      return `deployed ${input.version}`;
    },
  });
  return { tools: { deploy }, ran };
}

/** Sam answers the approval question about deploying `version`, each field by its path. */
async function samDecides(version: string, answers: Record<string, string>) {
  const question = await until(`Sam is asked to approve deploying ${version}`, async () =>
    (await parley.questionsForSam()).find((each) => each.title === "Allow the agent to run deploy?" && JSON.stringify(each).includes(`"${version}"`)),
  );
  await parley.answerAsSam(question.id, answers);
}

test("the example's deploy runs only once Sam approves it in Parley, though Parley restarted while it waited", async () => {
  const ran: string[] = [];
  const { model, prompts } = scriptedModel([() => [callTool("call-deploy-1", "deploy", { version: "4.2.0" })], () => [say("4.2.0 is live.")]]);
  const turn = releaseAgent({ baseUrl: parley.baseUrl, apiKey: parley.apiKey, model, deploy: async ({ version }) => (ran.push(version), `deployed ${version}`) });

  let state = await turn([{ role: "user", content: "Deploy 4.2.0." }]);
  expect(state.waiting).toBe(true);
  const question = await parley.questionForSam("Allow the agent to run deploy?");
  await parley.restart();
  state = await turn(JSON.parse(JSON.stringify(state.messages)) as ModelMessage[]);
  expect(state.waiting).toBe(true);
  expect(ran).toEqual([]);

  const spec = await parley.questionSpec(question.id);
  expect(spec.spec.fields.map((field) => field.path)).toEqual(["decision", "reason", "input.version"]);
  await parley.answerAsSam(question.id, { decision: "approve", "input.version": "4.2.0" });
  state = await turn(JSON.parse(JSON.stringify(state.messages)) as ModelMessage[]);

  expect(ran).toEqual(["4.2.0"]);
  expect(state).toMatchObject({ waiting: false, text: "4.2.0 is live." });
  expect(toolResultIn(prompts()[1], "call-deploy-1")).toEqual({ type: "text", value: "deployed 4.2.0" });
});

test("a deploy Sam rejects does not run, and the model reads his reason", async () => {
  const { tools, ran } = deployTool();
  const { model, prompts } = scriptedModel([() => [callTool("call-deploy-2", "deploy", { version: "4.3.0-rc" })], () => [say("Holding the deploy.")]]);
  const first = await generateText({ model, tools, messages: [{ role: "user", content: "Deploy 4.3.0-rc." }] });
  let messages: ModelMessage[] = [{ role: "user", content: "Deploy 4.3.0-rc." }, ...first.response.messages];
  await askForApprovals(messages, { ...approver(), tools });
  await samDecides("4.3.0-rc", { decision: "reject", reason: "Not on a Friday." });

  const resolved = await resolveApprovals(messages, { ...approver(), tools, wait: 20 });
  expect(resolved.decided).toMatchObject([{ approved: false, reason: "Sam Rivera rejected it: Not on a Friday." }]);
  messages = resolved.messages;
  await generateText({ model, tools, messages });
  expect(ran).toEqual([]);
  expect(toolResultIn(prompts()[1], "call-deploy-2")).toEqual({ type: "execution-denied", reason: "Sam Rivera rejected it: Not on a Friday." });
});

test("an approval nobody gives (the ask withdrawn) refuses the call with the reason in words", async () => {
  const { tools, ran } = deployTool();
  const { model, prompts } = scriptedModel([() => [callTool("call-deploy-3", "deploy", { version: "4.4.0" })], () => [say("Not deployed.")]]);
  const messages: ModelMessage[] = [{ role: "user", content: "Deploy 4.4.0." }];
  const first = await generateText({ model, tools, messages });
  const asked = await askForApprovals([...messages, ...first.response.messages], { ...approver(), tools });
  await client().cancelAsk(asked[0]!.ask.id);

  const resolved = await resolveApprovals([...messages, ...first.response.messages], { ...approver(), tools });
  await generateText({ model, tools, messages: resolved.messages });
  expect(ran).toEqual([]);
  expect(toolResultIn(prompts()[1], "call-deploy-3")).toEqual({ type: "execution-denied", reason: "Not approved: The question was withdrawn before anyone answered." });
});

test("a rollout Sam approves with changed values runs with his values, after the model calls it again, without asking him twice", async () => {
  const ran: unknown[] = [];
  const rollout = tool({
    description: "Roll a version out to a share of the users in one region.",
    inputSchema: z.object({ version: z.string(), percent: z.number().int().min(1).max(100), region: z.enum(["eu", "us"]), notify: z.boolean() }),
    needsApproval: true,
    execute: async (input) => (ran.push(input), `rolled out ${input.version} to ${input.percent}% in ${input.region}`),
  });
  const tools = { rollout };
  const { model, prompts } = scriptedModel([
    () => [callTool("call-rollout-1", "rollout", { version: "5.0.0", percent: 100, region: "eu", notify: false })],
    (prompt) => {
      const denied = toolResultIn(prompt, "call-rollout-1") as { type: string; reason: string };
      return [callTool("call-rollout-2", "rollout", JSON.parse(denied.reason.slice(denied.reason.indexOf("{"))))];
    },
    () => [say("Rolled out as Sam chose.")],
  ]);
  let messages: ModelMessage[] = [{ role: "user", content: "Roll 5.0.0 out in the EU." }];
  messages = [...messages, ...(await generateText({ model, tools, messages })).response.messages];
  await askForApprovals(messages, { ...approver(), tools });
  const question = await parley.questionForSam("Allow the agent to run rollout?");
  expect((await parley.questionSpec(question.id)).spec.fields.map((field) => field.path)).toEqual(["decision", "reason", "input.version", "input.percent", "input.region", "input.notify"]);
  await parley.answerAsSam(question.id, { decision: "approve", "input.version": "5.0.0", "input.percent": "10", "input.region": "eu", "input.notify": "yes" });

  const edited = await resolveApprovals(messages, { ...approver(), tools, wait: 20 });
  expect(edited.decided).toMatchObject([{ approved: false, editedInput: { version: "5.0.0", percent: 10, region: "eu", notify: true } }]);
  messages = [...edited.messages, ...(await generateText({ model, tools, messages: edited.messages })).response.messages];
  expect(ran).toEqual([]);

  const again = await resolveApprovals(messages, { ...approver(), tools });
  expect(again.decided).toMatchObject([{ toolCallId: "call-rollout-2", approved: true }]);
  await generateText({ model, tools, messages: again.messages });
  expect(ran).toEqual([{ version: "5.0.0", percent: 10, region: "eu", notify: true }]);
  expect(toolResultIn(prompts()[2], "call-rollout-2")).toEqual({ type: "text", value: "rolled out 5.0.0 to 10% in eu" });
  expect((await parley.questionsForSam()).filter((each) => each.title === "Allow the agent to run rollout?")).toHaveLength(0);
});
