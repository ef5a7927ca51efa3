import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { resolveModel } from "@/lib/models/resolve-model";
import { tasks } from "@/lib/registry";
import { chatCompletion, type FakeProviderServer, type FakeReply, type ReceivedRequest, startFakeProviderServer } from "../models/fake-provider-server";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

const QUESTION = "Which client was the Lisbon dinner with?";
const ANSWER = "Acme procurement, to close the renewal.";
const FILED = "Filed as a client dinner with Acme.";

type Body = { messages: { role: string; content: unknown }[] };
const hasToolResult = (request: ReceivedRequest) =>
  (request.body as Body).messages.some((message) => message.role === "tool" || (Array.isArray(message.content) && message.content.some((part: { type?: string }) => part.type === "tool_result")));

/** Each provider Parley can be configured with, as a real HTTP server of its wire format would answer. */
const PROVIDERS = {
  "openai-compatible": {
    env: (baseUrl: string) => ({ PARLEY_MODEL_BASE_URL: baseUrl, PARLEY_MODEL: "test-model", PARLEY_MODEL_API_KEY: "sk-local" }),
    reply: (request: ReceivedRequest): FakeReply =>
      hasToolResult(request) ? chatCompletion({ content: FILED }) : chatCompletion({ content: null, tool_calls: [{ id: "call_ask_1", name: "ask", arguments: { question: QUESTION } }] }),
    toolResultOf: (request: ReceivedRequest) => (request.body as Body).messages.find((message) => message.role === "tool"),
    expectedResult: { role: "tool", tool_call_id: "call_ask_1", content: ANSWER },
  },
  anthropic: {
    env: (baseUrl: string) => ({ PARLEY_MODEL_PROVIDER: "anthropic", PARLEY_MODEL_BASE_URL: baseUrl, PARLEY_MODEL: "claude-test", ANTHROPIC_API_KEY: "sk-ant-local" }),
    reply: (request: ReceivedRequest): FakeReply => ({
      status: 200,
      body: {
        id: "msg_test",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: hasToolResult(request) ? [{ type: "text", text: FILED }] : [{ type: "tool_use", id: "toolu_ask_1", name: "ask", input: { question: QUESTION } }],
        stop_reason: hasToolResult(request) ? "end_turn" : "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 40, output_tokens: 9 },
      },
    }),
    toolResultOf: (request: ReceivedRequest) =>
      (request.body as Body).messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).find((part: { type?: string }) => part.type === "tool_result"),
    expectedResult: { type: "tool_result", tool_use_id: "toolu_ask_1", content: ANSWER },
  },
} as const;

describe.each(Object.keys(PROVIDERS) as (keyof typeof PROVIDERS)[])("an agent on the %s provider, over real HTTP", (provider) => {
  let fixture: RuntimeFixture | undefined;
  let server: FakeProviderServer | undefined;
  afterEach(async () => {
    await server?.close();
    await fixture?.database.close();
  });

  it("asks a person, parks, and resumes with the answer as the ask call's result", async () => {
    const { env, reply, toolResultOf, expectedResult } = PROVIDERS[provider];
    server = await startFakeProviderServer(reply);
    const { model } = resolveModel(env(server.baseUrl), {
      scripted: () => {
        throw new Error("the scripted model must not be chosen");
      },
    });
    fixture = await createRuntimeFixture("pglite", { resolveModel: () => model });
    const task = await fixture.startTask();
    await fixture.runtime.drain();

    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(question).toMatchObject({ taskId: task.id, status: "open" });
    expect(JSON.stringify(question)).toContain(QUESTION);
    const answered = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { text: { answer: ANSWER } } });
    expect(answered.status).toBe("answered");
    await fixture.runtime.drain();

    const [row] = await fixture.database.db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("completed");
    expect(server.requests).toHaveLength(2);
    expect(toolResultOf(server.requests[1]!)).toMatchObject(expectedResult);
    const events = await fixture.runtime.events(task.id);
    expect(events.filter((event) => event.kind === "turn-finished")).toHaveLength(2);
  });
});
