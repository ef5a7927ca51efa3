import { generateText } from "ai";
import { afterEach, expect, it, vi } from "vitest";

import { resolveModel } from "@/lib/models/resolve-model";

import { type FakeProviderServer, startFakeProviderServer } from "./fake-provider-server";

let server: FakeProviderServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

it("calls Anthropic at the configured URL with the configured key, not the process's", async () => {
  // The provider falls back to these when not given a value; resolveModel must always give one.
  vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-from-process-env");
  vi.stubEnv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/unused");
  server = await startFakeProviderServer(() => ({
    status: 200,
    body: {
      id: "msg_test",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [{ type: "text", text: "Hello from the fake Anthropic." }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 6 },
    },
  }));
  const { model, kind, label } = resolveModel(
    {
      PARLEY_MODEL_PROVIDER: "anthropic",
      PARLEY_MODEL_BASE_URL: server.baseUrl,
      PARLEY_MODEL: "claude-test",
      ANTHROPIC_API_KEY: "sk-ant-given",
    },
    {
      scripted: () => {
        throw new Error("the scripted model must not be chosen");
      },
    },
  );
  expect(kind).toBe("anthropic");
  expect(label).toContain("claude-test");

  const result = await generateText({ model, prompt: "hello", maxRetries: 0, maxOutputTokens: 256 });

  expect(result.text).toBe("Hello from the fake Anthropic.");
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]).toMatchObject({ method: "POST", path: "/v1/messages", body: { model: "claude-test" } });
  expect(server.requests[0]?.headers["x-api-key"]).toBe("sk-ant-given");
});
