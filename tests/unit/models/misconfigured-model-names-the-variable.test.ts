import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";

import { isModelConfigurationError, type ModelConfigurationError } from "@/lib/models/model-configuration-error";
import { type ModelEnvironment, resolveModel } from "@/lib/models/resolve-model";

function configurationError(env: ModelEnvironment): ModelConfigurationError {
  let scriptedCalled = false;
  try {
    resolveModel(env, {
      scripted: () => {
        scriptedCalled = true;
        return new MockLanguageModelV3();
      },
    });
  } catch (error) {
    if (isModelConfigurationError(error)) {
      expect(scriptedCalled).toBe(false);
      return error;
    }
    throw error;
  }
  throw new Error(`expected a configuration error, but a model was resolved (scripted: ${scriptedCalled})`);
}

describe("a misconfigured model is an error naming the variable to set, never the scripted model", () => {
  const cases: { name: string; env: ModelEnvironment; variable: string }[] = [
    { name: "a base URL with no model id", env: { PARLEY_MODEL_BASE_URL: "http://localhost:11434/v1" }, variable: "PARLEY_MODEL" },
    { name: "a key with no model id", env: { PARLEY_MODEL_PROVIDER: "openai-compatible", OPENAI_API_KEY: "sk" }, variable: "PARLEY_MODEL" },
    {
      name: "Anthropic with no model id",
      env: { PARLEY_MODEL_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "sk-ant" },
      variable: "PARLEY_MODEL",
    },
    { name: "Anthropic with no key", env: { PARLEY_MODEL_PROVIDER: "anthropic", PARLEY_MODEL: "claude-sonnet-4-5" }, variable: "ANTHROPIC_API_KEY" },
    {
      name: "OpenAI-compatible with neither base URL nor key",
      env: { PARLEY_MODEL_PROVIDER: "openai-compatible", PARLEY_MODEL: "gpt-4.1" },
      variable: "PARLEY_MODEL_API_KEY",
    },
    { name: "an unknown provider", env: { PARLEY_MODEL_PROVIDER: "openai", PARLEY_MODEL: "gpt-4.1" }, variable: "PARLEY_MODEL_PROVIDER" },
    { name: "a model id and no way to tell the provider", env: { PARLEY_MODEL: "gpt-4.1" }, variable: "PARLEY_MODEL_PROVIDER" },
    { name: "a key and no way to tell the provider", env: { PARLEY_MODEL_API_KEY: "sk" }, variable: "PARLEY_MODEL_PROVIDER" },
    {
      name: "a model id with both providers' keys",
      env: { PARLEY_MODEL: "gpt-4.1", OPENAI_API_KEY: "sk", ANTHROPIC_API_KEY: "sk-ant" },
      variable: "PARLEY_MODEL_PROVIDER",
    },
    { name: "a base URL that is not a URL", env: { PARLEY_MODEL_BASE_URL: "localhost:11434", PARLEY_MODEL: "m" }, variable: "PARLEY_MODEL_BASE_URL" },
    { name: "a base URL that is not http", env: { PARLEY_MODEL_BASE_URL: "ftp://host/v1", PARLEY_MODEL: "m" }, variable: "PARLEY_MODEL_BASE_URL" },
    {
      name: "a base URL carrying credentials",
      env: { PARLEY_MODEL_BASE_URL: "https://user:sk-secret@host/v1", PARLEY_MODEL: "m" },
      variable: "PARLEY_MODEL_BASE_URL",
    },
  ];

  it.each(cases)("$name → $variable", ({ env, variable }) => {
    const error = configurationError(env);

    expect(error.code).toBe("model_misconfigured");
    expect(error.variable).toBe(variable);
    // The person reading the log must be told which variable to set.
    expect(error.message).toContain(variable);
  });

  it("does not repeat a secret from the environment in the message", () => {
    const error = configurationError({ PARLEY_MODEL_BASE_URL: "not a url sk-secret-123", PARLEY_MODEL: "m" });

    expect(error.message).not.toContain("sk-secret-123");
  });
});
