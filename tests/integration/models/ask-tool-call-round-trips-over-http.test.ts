import { generateText, type ModelMessage, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { resolveModel } from "@/lib/models/resolve-model";

import { chatCompletion, type FakeProviderServer, startFakeProviderServer } from "./fake-provider-server";

// The ask tool as the runtime offers it: no `execute`, so the call comes back pending.
const tools = {
  ask: tool({
    description: "Ask a person a question and wait for the answer.",
    inputSchema: z.object({ question: z.string(), options: z.array(z.string()).optional() }),
  }),
};

const SYSTEM = "You review expense claims.";
const INSTRUCTION: ModelMessage = { role: "user", content: "Review claim 17: taxi, 84.00 EUR, 2026-11-03." };
const QUESTION = { question: "Which project was the taxi on 3 November for?", options: ["Apollo", "Zephyr"] };

const noScriptedModel = () => {
  throw new Error("the scripted model must not be chosen when a base URL is set");
};

function chatMessages(body: unknown): unknown[] {
  return (body as { messages: unknown[] }).messages;
}

describe("the OpenAI-compatible model over real HTTP", () => {
  let server: FakeProviderServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("returns an ask call pending, then the final text once the answer is replayed as its result", async () => {
    server = await startFakeProviderServer((request) => {
      const answered = chatMessages(request.body).some((message) => (message as { role: string }).role === "tool");
      return answered
        ? chatCompletion({ content: "Approved: the taxi was for the Apollo client visit." })
        : chatCompletion({ content: null, tool_calls: [{ id: "call_ask_1", name: "ask", arguments: QUESTION }] });
    });
    const { model, kind } = resolveModel(
      { PARLEY_MODEL_BASE_URL: server.baseUrl, PARLEY_MODEL: "test-model", PARLEY_MODEL_API_KEY: "sk-local" },
      { scripted: noScriptedModel },
    );
    expect(kind).toBe("openai-compatible");

    const asked = await generateText({ model, system: SYSTEM, messages: [INSTRUCTION], tools, maxRetries: 0 });

    expect(asked.finishReason).toBe("tool-calls");
    expect(asked.toolCalls).toHaveLength(1);
    expect(asked.toolCalls[0]).toMatchObject({ type: "tool-call", toolCallId: "call_ask_1", toolName: "ask", input: QUESTION });
    expect(asked.toolResults).toEqual([]);

    expect(server.requests).toHaveLength(1);
    const [first] = server.requests;
    expect(first).toMatchObject({ method: "POST", path: "/v1/chat/completions" });
    expect(first?.headers.authorization).toBe("Bearer sk-local");
    expect(first?.body).toMatchObject({
      model: "test-model",
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: INSTRUCTION.content },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "ask",
            description: "Ask a person a question and wait for the answer.",
            parameters: {
              type: "object",
              properties: { question: { type: "string" }, options: { type: "array", items: { type: "string" } } },
              required: ["question"],
            },
          },
        },
      ],
    });
    expect((first?.body as { stream?: boolean }).stream).not.toBe(true);

    // What the runtime stores when it parks and replays on resume: the assistant turn with the
    // pending call, then the person's answer as that call's result, matched by tool-call id.
    const replay: ModelMessage[] = [
      INSTRUCTION,
      ...asked.response.messages,
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_ask_1", toolName: "ask", output: { type: "text", value: "Apollo" } }],
      },
    ];
    const resumed = await generateText({ model, system: SYSTEM, messages: replay, tools, maxRetries: 0 });

    expect(resumed.finishReason).toBe("stop");
    expect(resumed.text).toBe("Approved: the taxi was for the Apollo client visit.");
    expect(resumed.toolCalls).toEqual([]);

    expect(server.requests).toHaveLength(2);
    const messages = chatMessages(server.requests[1]?.body);
    expect(messages).toHaveLength(4);
    expect(messages.slice(0, 2)).toEqual([
      { role: "system", content: SYSTEM },
      { role: "user", content: INSTRUCTION.content },
    ]);
    const [assistant, result] = messages.slice(2) as [
      { role: string; tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[] },
      unknown,
    ];
    expect(assistant.role).toBe("assistant");
    expect(assistant.tool_calls).toHaveLength(1);
    expect(assistant.tool_calls[0]).toMatchObject({ id: "call_ask_1", type: "function", function: { name: "ask" } });
    expect(JSON.parse(assistant.tool_calls[0]?.function.arguments ?? "")).toEqual(QUESTION);
    expect(result).toEqual({ role: "tool", tool_call_id: "call_ask_1", content: "Apollo" });
  });

  it("returns every ask call of one step pending, each with its own id", async () => {
    server = await startFakeProviderServer(() =>
      chatCompletion({
        content: null,
        tool_calls: [
          { id: "call_ask_1", name: "ask", arguments: { question: "Which project?" } },
          { id: "call_ask_2", name: "ask", arguments: { question: "Was a receipt kept?", options: ["yes", "no"] } },
        ],
      }),
    );
    const { model } = resolveModel(
      { PARLEY_MODEL_BASE_URL: server.baseUrl, PARLEY_MODEL: "test-model" },
      { scripted: noScriptedModel },
    );

    const asked = await generateText({ model, messages: [INSTRUCTION], tools, maxRetries: 0 });

    expect(asked.toolCalls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input }))).toEqual([
      { toolCallId: "call_ask_1", toolName: "ask", input: { question: "Which project?" } },
      { toolCallId: "call_ask_2", toolName: "ask", input: { question: "Was a receipt kept?", options: ["yes", "no"] } },
    ]);
    expect(asked.toolResults).toEqual([]);
    // No key configured for a local server: no Authorization header at all.
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});
