import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";

import {
  type ModelEnvironment,
  type ModelKind,
  resolveModel,
  SCRIPTED_LABEL_SELECTED,
  SCRIPTED_LABEL_UNCONFIGURED,
} from "@/lib/models/resolve-model";

const scriptedModel = new MockLanguageModelV3({ provider: "parley.scripted", modelId: "scripted" });

function resolve(env: ModelEnvironment) {
  const scripted = vi.fn(() => scriptedModel);
  return { ...resolveModel(env, { scripted }), scripted };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("with nothing configured", () => {
  it("runs the scripted model and says so", () => {
    const { model, kind, label, scripted } = resolve({});

    expect(kind).toBe("scripted");
    expect(model).toBe(scriptedModel);
    expect(label).toBe(SCRIPTED_LABEL_UNCONFIGURED);
    expect(scripted).toHaveBeenCalledOnce();
  });

  it("treats empty and blank values as unset", () => {
    expect(resolve({ PARLEY_MODEL_PROVIDER: "", PARLEY_MODEL: "  ", PARLEY_MODEL_BASE_URL: "\t", PARLEY_MODEL_API_KEY: "" }).kind).toBe(
      "scripted",
    );
  });

  it("is not switched to a real model by a provider's key alone", () => {
    expect(resolve({ OPENAI_API_KEY: "sk-openai" }).kind).toBe("scripted");
    expect(resolve({ ANTHROPIC_API_KEY: "sk-ant" }).kind).toBe("scripted");
    expect(resolve({ OPENAI_API_KEY: "sk-openai", ANTHROPIC_API_KEY: "sk-ant" }).kind).toBe("scripted");
  });

  it("reads only the environment it is given, never process.env", () => {
    vi.stubEnv("PARLEY_MODEL_BASE_URL", "http://127.0.0.1:11434/v1");
    vi.stubEnv("PARLEY_MODEL", "llama3.1");

    expect(resolve({}).kind).toBe("scripted");
  });
});

describe("the provider", () => {
  const cases: { name: string; env: ModelEnvironment; kind: ModelKind; provider: string; modelId: string; label: string }[] = [
    {
      name: "is openai-compatible when a base URL is set",
      env: { PARLEY_MODEL_BASE_URL: "http://localhost:11434/v1", PARLEY_MODEL: "llama3.1" },
      kind: "openai-compatible",
      provider: "openai-compatible.chat",
      modelId: "llama3.1",
      label: "llama3.1 at localhost:11434 (OpenAI-compatible)",
    },
    {
      name: "is openai-compatible when a base URL is set, even beside an Anthropic key",
      env: { PARLEY_MODEL_BASE_URL: "http://vllm.internal:8000/v1", PARLEY_MODEL: "qwen", ANTHROPIC_API_KEY: "sk-ant" },
      kind: "openai-compatible",
      provider: "openai-compatible.chat",
      modelId: "qwen",
      label: "qwen at vllm.internal:8000 (OpenAI-compatible)",
    },
    {
      name: "is OpenAI itself when only OPENAI_API_KEY is there to use",
      env: { PARLEY_MODEL: "gpt-4.1", OPENAI_API_KEY: "sk-openai" },
      kind: "openai-compatible",
      provider: "openai-compatible.chat",
      modelId: "gpt-4.1",
      label: "gpt-4.1 at api.openai.com (OpenAI-compatible)",
    },
    {
      name: "is anthropic when only ANTHROPIC_API_KEY is there to use",
      env: { PARLEY_MODEL: "claude-sonnet-4-5", ANTHROPIC_API_KEY: "sk-ant" },
      kind: "anthropic",
      provider: "anthropic.messages",
      modelId: "claude-sonnet-4-5",
      label: "claude-sonnet-4-5 (Anthropic)",
    },
    {
      name: "is what PARLEY_MODEL_PROVIDER says, whatever could be inferred",
      env: { PARLEY_MODEL_PROVIDER: "anthropic", PARLEY_MODEL: "claude-sonnet-4-5", PARLEY_MODEL_API_KEY: "sk-ant", OPENAI_API_KEY: "sk-openai" },
      kind: "anthropic",
      provider: "anthropic.messages",
      modelId: "claude-sonnet-4-5",
      label: "claude-sonnet-4-5 (Anthropic)",
    },
    {
      name: "is anthropic behind a proxy when PARLEY_MODEL_PROVIDER says so beside a base URL",
      env: { PARLEY_MODEL_PROVIDER: "Anthropic", PARLEY_MODEL_BASE_URL: "https://proxy.example/v1", PARLEY_MODEL: "claude-x", ANTHROPIC_API_KEY: "k" },
      kind: "anthropic",
      provider: "anthropic.messages",
      modelId: "claude-x",
      label: "claude-x at proxy.example (Anthropic)",
    },
    {
      name: "is openai-compatible with both keys present when PARLEY_MODEL_PROVIDER says so",
      env: { PARLEY_MODEL_PROVIDER: "openai-compatible", PARLEY_MODEL: "gpt-4.1", OPENAI_API_KEY: "sk-openai", ANTHROPIC_API_KEY: "sk-ant" },
      kind: "openai-compatible",
      provider: "openai-compatible.chat",
      modelId: "gpt-4.1",
      label: "gpt-4.1 at api.openai.com (OpenAI-compatible)",
    },
  ];

  it.each(cases)("$name", ({ env, kind, provider, modelId, label }) => {
    const resolved = resolve(env);

    expect(resolved.kind).toBe(kind);
    expect(resolved.model.specificationVersion).toBe("v3");
    expect(resolved.model.provider).toBe(provider);
    expect(resolved.model.modelId).toBe(modelId);
    expect(resolved.label).toBe(label);
    expect(resolved.scripted).not.toHaveBeenCalled();
  });

  it("is the scripted model when asked for by name, even with a real model configured", () => {
    const { kind, model, label } = resolve({
      PARLEY_MODEL_PROVIDER: "scripted",
      PARLEY_MODEL_BASE_URL: "http://localhost:11434/v1",
      PARLEY_MODEL: "llama3.1",
    });

    expect(kind).toBe("scripted");
    expect(model).toBe(scriptedModel);
    expect(label).toBe(SCRIPTED_LABEL_SELECTED);
  });

  it("never puts the key in the label", () => {
    const { label } = resolve({ PARLEY_MODEL: "gpt-4.1", PARLEY_MODEL_API_KEY: "sk-secret-123", PARLEY_MODEL_PROVIDER: "openai-compatible" });

    expect(label).not.toContain("sk-secret-123");
  });
});
