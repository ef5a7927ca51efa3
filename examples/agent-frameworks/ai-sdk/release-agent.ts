import { createParleyClient } from "@parleyhq/client";
import { askForApprovals, askPersonTool, isWaitingForPerson, resolveApprovals, resolvePersonAnswers } from "@parleyhq/client/ai";
import { generateText, type LanguageModel, type ModelMessage, stepCountIs, tool } from "ai";
import { z } from "zod";

export function releaseAgent(config: { baseUrl: string; apiKey: string; model: LanguageModel; deploy: (input: { version: string }) => Promise<string> }) {
  const client = createParleyClient(config);
  const to = "sam@parley.test";
  const tools = {
    askPerson: askPersonTool({ client, to, within: { hours: 8 } }),
    deploy: tool({ description: "Deploy a version to production.", inputSchema: z.object({ version: z.string() }), needsApproval: true, execute: config.deploy }),
  };

  // Call it on every event (a user's message, Parley's webhook, a timer) with the stored messages; store what it returns.
  return async function turn(messages: ModelMessage[]): Promise<{ messages: ModelMessage[]; waiting: boolean; text?: string }> {
    const answers = await resolvePersonAnswers(messages, { client });
    const approvals = await resolveApprovals(answers.messages, { client, to, tools });
    if (answers.waiting.length > 0 || approvals.waiting.length > 0) return { messages: approvals.messages, waiting: true };

    const result = await generateText({ model: config.model, tools, messages: approvals.messages, stopWhen: [stepCountIs(10), isWaitingForPerson()] });
    const next = [...approvals.messages, ...result.response.messages];
    await askForApprovals(next, { client, to, tools }); // Sam hears of a deploy to approve at once, not on the next event
    return { messages: next, waiting: result.finishReason === "tool-calls", text: result.text };
  };
}
