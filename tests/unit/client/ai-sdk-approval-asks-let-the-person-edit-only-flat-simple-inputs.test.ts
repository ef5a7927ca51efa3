import { createParleyClient } from "@parleyhq/client";
import { askForApprovals } from "@parleyhq/client/ai";
import { type ModelMessage, tool } from "ai";
import { expect, test } from "vitest";
import { z } from "zod";

/** A client whose fetch records each ask it sends and answers it as an open ask. */
function recordingClient() {
  const sent: { key: string | null; body: Record<string, unknown> }[] = [];
  const client = createParleyClient({
    baseUrl: "http://parley.test",
    apiKey: "pk_test",
    fetch: async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      sent.push({ key: new Headers(init?.headers).get("idempotency-key"), body });
      const ask = { id: `ask_${sent.length}`, status: "open", question_id: `q_${sent.length}`, url: "http://parley.test/q", ...body };
      return new Response(JSON.stringify(ask), { status: 201, headers: { "content-type": "application/json" } });
    },
  });
  return { client, sent };
}

/** A conversation whose last step asks approval for one call. */
function awaitingApproval(toolName: string, input: unknown): ModelMessage[] {
  return [
    { role: "user", content: "Go." },
    {
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "call-1", toolName, input },
        { type: "tool-approval-request", approvalId: "approval-1", toolCallId: "call-1" },
      ],
    },
  ];
}

const noop = async () => "done";

test("a flat input of simple fields is offered to the person with the model's values filled in", async () => {
  const transfer = tool({
    description: "Move money between accounts.",
    inputSchema: z.object({ to: z.string(), amount: z.number().int().min(1).max(10_000), currency: z.enum(["EUR", "USD"]), urgent: z.boolean().optional(), memo: z.string().optional() }),
    needsApproval: true,
    execute: noop,
  });
  const { client, sent } = recordingClient();
  await askForApprovals(awaitingApproval("transfer", { to: "ACME", amount: 250, currency: "EUR", urgent: true }), { client, to: "sam@parley.test", tools: { transfer } });

  expect(sent).toHaveLength(1);
  expect(sent[0]!.key).toBe("ai-sdk-approval:approval-1");
  const schema = sent[0]!.body.response_schema as { properties: Record<string, { properties?: Record<string, unknown>; required?: string[] }>; required: string[] };
  expect(schema.required).toEqual(["decision", "input"]);
  expect(schema.properties.input!.properties).toEqual({
    to: { type: "string", default: "ACME" },
    amount: expect.objectContaining({ type: "integer", minimum: 1, maximum: 10_000, default: 250 }),
    currency: { type: "string", enum: ["EUR", "USD"], default: "EUR" },
    urgent: { type: "boolean", default: true },
    memo: { type: "string" },
  });
  expect(schema.properties.input!.required).toEqual(["to", "amount", "currency", "urgent"]);
  expect(sent[0]!.body).toMatchObject({
    title: "Allow the agent to run transfer?",
    context: { tool: "transfer", to: "ACME", amount: 250, currency: "EUR", urgent: true },
    metadata: { ai_sdk: { approval_id: "approval-1", tool_call_id: "call-1" } },
  });
  expect(sent[0]!.body.body).toContain("Move money between accounts.");
  expect(sent[0]!.body.body).toContain('"amount": 250');
});

test("an input with a nested object is shown but not offered for editing: approve or reject only", async () => {
  const ship = tool({
    description: "Ship an order.",
    inputSchema: z.object({ orderId: z.string(), address: z.object({ street: z.string(), city: z.string() }) }),
    needsApproval: true,
    execute: noop,
  });
  const { client, sent } = recordingClient();
  await askForApprovals(awaitingApproval("ship", { orderId: "o-9", address: { street: "1 Main St", city: "Oslo" } }), { client, to: "sam@parley.test", tools: { ship } });

  const schema = sent[0]!.body.response_schema as { properties: Record<string, unknown>; required: string[] };
  expect(Object.keys(schema.properties)).toEqual(["decision", "reason"]);
  expect(schema.required).toEqual(["decision"]);
  expect(sent[0]!.body.body).toContain('"city": "Oslo"');
  expect(sent[0]!.body.context).toEqual({ tool: "ship", orderId: "o-9" });
});

test("without the tools, a request is still asked about, approve or reject only", async () => {
  const { client, sent } = recordingClient();
  await askForApprovals(awaitingApproval("deleteBranch", { branch: "main" }), { client, to: ["sam@parley.test", "kim@parley.test"] });
  expect(sent[0]!.body).toMatchObject({ to: ["sam@parley.test", "kim@parley.test"], title: "Allow the agent to run deleteBranch?", context: { tool: "deleteBranch", branch: "main" } });
  expect(Object.keys((sent[0]!.body.response_schema as { properties: object }).properties)).toEqual(["decision", "reason"]);
});

test("requests already answered in the conversation are not asked about again", async () => {
  const { client, sent } = recordingClient();
  const messages: ModelMessage[] = [...awaitingApproval("deleteBranch", { branch: "main" }), { role: "tool", content: [{ type: "tool-approval-response", approvalId: "approval-1", approved: false, reason: "No." }] }];
  expect(await askForApprovals(messages, { client, to: "sam@parley.test" })).toEqual([]);
  expect(sent).toHaveLength(0);
});
