import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedModel, SCRIPTED_PROVIDER } from "./scripted-model";

describe("the scripted model", () => {
  it("names itself as scripted", () => {
    const model = createScriptedModel({ name: "auditor-script", respond: () => ({ text: "hi" }) });
    expect([model.provider, model.modelId]).toEqual([SCRIPTED_PROVIDER, "auditor-script"]);
  });

  it("answers with the text its script gives", async () => {
    const model = createScriptedModel({ respond: () => ({ text: "Approved." }) });
    const result = await generateText({ model, prompt: "Review this." });
    expect(result.text).toBe("Approved.");
  });

  it("makes the tool calls its script gives, and generation stops at a tool without execute", async () => {
    const model = createScriptedModel({ respond: () => ({ toolCalls: [{ toolName: "ask", input: { question: "Why?" } }] }) });
    const result = await generateText({
      model,
      prompt: "Review this.",
      tools: { ask: tool({ inputSchema: z.object({ question: z.string() }) }) },
      stopWhen: stepCountIs(5),
    });
    expect(result.toolCalls).toMatchObject([{ toolName: "ask", toolCallId: "call-1-0", input: { question: "Why?" } }]);
    expect(model.calls).toHaveLength(1);
  });

  it("records every call's prompt and tools", async () => {
    const model = createScriptedModel({ respond: () => ({ text: "ok" }) });
    await generateText({ model, system: "Be brief.", prompt: "One.", tools: { lookup: tool({ inputSchema: z.object({}), execute: async () => "x" }) } });
    expect(model.calls[0]?.prompt).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "One." }] },
    ]);
    expect(model.calls[0]?.tools?.map((entry) => entry.name)).toEqual(["lookup"]);
  });

  it("throws a provider error its script asks for", async () => {
    const model = createScriptedModel({ respond: () => ({ error: "overloaded", status: 529 }) });
    await expect(generateText({ model, prompt: "x", maxRetries: 0 })).rejects.toMatchObject({ message: "overloaded", statusCode: 529 });
  });

  it("waits before replying, and gives up when the caller aborts", async () => {
    const model = createScriptedModel({ respond: () => ({ delayMs: 10_000, then: { text: "late" } }) });
    const started = Date.now();
    await expect(generateText({ model, prompt: "x", maxRetries: 0, abortSignal: AbortSignal.timeout(30) })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("the scripted model's record of calls", () => {
  it("keeps only the latest calls it is told to", async () => {
    const model = createScriptedModel({ maxRecordedCalls: 2, respond: () => ({ text: "ok" }) });
    for (const prompt of ["one", "two", "three"]) await generateText({ model, prompt });
    expect(model.calls.map((call) => call.prompt.at(-1)?.content)).toEqual([
      [{ type: "text", text: "two" }],
      [{ type: "text", text: "three" }],
    ]);
  });
});
