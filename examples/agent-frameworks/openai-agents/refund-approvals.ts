import { Agent, type Model, run, tool } from "@openai/agents";
import { createParleyClient } from "@parleyhq/client";
import { fileRunStateStore, type ParleyApprovals, parleyApprovals } from "@parleyhq/client/openai-agents";
import { z } from "zod";

const refund = tool({
  name: "refund", description: "Refund an order.", needsApproval: true,
  parameters: z.object({ orderId: z.string(), amount: z.number() }),
  execute: async ({ orderId, amount }) => `refunded ${amount} on ${orderId}`,
});
export const supportAgent = (model?: Model) => new Agent({ name: "Support", instructions: "Refund what is owed.", tools: [refund], ...(model ? { model } : {}) });

export const approvalsFor = (parley: { baseUrl: string; apiKey: string }, directory = "./parked-runs") =>
  parleyApprovals({ parley: createParleyClient(parley), to: "sam@parley.test", within: { hours: 4 }, store: fileRunStateStore(directory) });

// Runs until `refund` needs a person, asks Sam, keeps the run on disk and returns: this process may exit.
export async function handleTicket(agent: Agent, approvals: ParleyApprovals, ticket: string, message: string) {
  const result = await run(agent, message);
  if (result.interruptions.length === 0) return result.finalOutput;
  await approvals.park(ticket, result);
  return "waiting for Sam";
}

// Any process, any time later: waits for Sam's decision, then the run goes on (the refund runs only if he approved).
export async function finishTicket(agent: Agent, approvals: ParleyApprovals, ticket: string) {
  const outcome = await approvals.resume(ticket, agent);
  return outcome.status === "finished" ? outcome.result.finalOutput : outcome.status;
}
