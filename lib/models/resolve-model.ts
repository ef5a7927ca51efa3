/**
 * Chooses the language model Parley runs from the environment it is given.
 *
 * | Variable                | Meaning                                                                           |
 * |-------------------------|-----------------------------------------------------------------------------------|
 * | `PARLEY_MODEL_PROVIDER` | `openai-compatible`, `anthropic` or `scripted`; inferred when unset (below).      |
 * | `PARLEY_MODEL`          | Model id (`gpt-4.1`, `llama3.1`, `claude-sonnet-4-5`…); required unless scripted. |
 * | `PARLEY_MODEL_BASE_URL` | API base URL with its version path, e.g. `http://localhost:11434/v1` (Ollama).    |
 * | `PARLEY_MODEL_API_KEY`  | API key; wins over the two below. Optional for a self-hosted server.              |
 * | `OPENAI_API_KEY`        | Key for `openai-compatible` when `PARLEY_MODEL_API_KEY` is unset.                 |
 * | `ANTHROPIC_API_KEY`     | Key for `anthropic` when `PARLEY_MODEL_API_KEY` is unset.                         |
 *
 * The base URL defaults to `https://api.openai.com/v1` for `openai-compatible` (a key is then
 * required) and `https://api.anthropic.com/v1` for `anthropic` (set it to go through a proxy).
 *
 * Inference when `PARLEY_MODEL_PROVIDER` is unset:
 * - none of `PARLEY_MODEL`, `PARLEY_MODEL_BASE_URL`, `PARLEY_MODEL_API_KEY` set → the scripted model;
 * - `PARLEY_MODEL_BASE_URL` set → `openai-compatible`;
 * - otherwise `anthropic` if only `ANTHROPIC_API_KEY` is set, `openai-compatible` (OpenAI's own
 *   endpoint) if only `OPENAI_API_KEY` is set, and an error asking for `PARLEY_MODEL_PROVIDER` if
 *   both or neither are.
 *
 * `OPENAI_API_KEY` or `ANTHROPIC_API_KEY` alone never switch a real model on: they are often present
 * in a developer's shell for other tools, and Parley should not start spending them unasked.
 *
 * Empty or whitespace-only values count as unset. Anything incomplete (a base URL with no model id,
 * Anthropic with no key, an unknown provider) is a {@link ModelConfigurationError} naming the
 * variable to set — never a silent fallback to the scripted model.
 *
 * @module
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";

import { ModelConfigurationError } from "./model-configuration-error";

/** The providers Parley can run on. */
export const MODEL_KINDS = ["openai-compatible", "anthropic", "scripted"] as const;

/** Which provider a resolved model comes from. */
export type ModelKind = (typeof MODEL_KINDS)[number];

/** Where a configured model is reached, to name in advice about a failed call. */
export interface ModelEndpoint {
  /** The API base URL calls go to. */
  url: string;
  /** The model id asked for. */
  modelId: string;
  /** The setting the base URL came from: PARLEY_MODEL_BASE_URL, or the provider's own address when it is unset. */
  urlSetting: "PARLEY_MODEL_BASE_URL" | "the provider's default";
  /** The settings an API key is read from, first that is set wins. */
  keySettings: readonly string[];
}

/** The model Parley will run, with what to tell people about it. */
export interface ResolvedModel {
  model: LanguageModelV3;
  kind: ModelKind;
  /** Shown in the UI, so people know which model is answering (or that none is configured). */
  label: string;
  /** Where a real model is reached, for advice when a call to it fails (none for the scripted model). */
  endpoint?: ModelEndpoint;
}

/** The environment to read; pass `process.env` at the edge, a plain object in tests. */
export type ModelEnvironment = Readonly<Record<string, string | undefined>>;

/** What {@link resolveModel} needs besides the environment. */
export interface ResolveModelOptions {
  /** Builds the scripted model; only called when the scripted model is selected. */
  scripted: () => LanguageModelV3;
}

const OPENAI_BASE_URL = "https://api.openai.com/v1";
// Passed explicitly so the Anthropic provider never reads ANTHROPIC_BASE_URL from process.env.
const ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";

/** The label shown when nothing is configured. */
export const SCRIPTED_LABEL_UNCONFIGURED = "Scripted model (no model configured)";
/** The label shown when the scripted model was asked for by name. */
export const SCRIPTED_LABEL_SELECTED = "Scripted model (PARLEY_MODEL_PROVIDER=scripted)";

/**
 * Resolves the model from `env` (see the table at the top of this file). Reads nothing but `env`.
 *
 * @throws {ModelConfigurationError} when the settings are incomplete or contradictory.
 */
export function resolveModel(env: ModelEnvironment, options: ResolveModelOptions): ResolvedModel {
  const setting = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const provider = setting("PARLEY_MODEL_PROVIDER");
  const modelId = setting("PARLEY_MODEL");
  const baseUrl = setting("PARLEY_MODEL_BASE_URL");
  const apiKey = setting("PARLEY_MODEL_API_KEY");
  const openAiKey = setting("OPENAI_API_KEY");
  const anthropicKey = setting("ANTHROPIC_API_KEY");

  const kind = provider === undefined ? inferKind({ modelId, baseUrl, apiKey, openAiKey, anthropicKey }) : parseKind(provider);

  switch (kind) {
    case "scripted":
      return {
        model: options.scripted(),
        kind,
        label: provider === undefined ? SCRIPTED_LABEL_UNCONFIGURED : SCRIPTED_LABEL_SELECTED,
      };

    case "openai-compatible": {
      const url = parseBaseUrl(baseUrl ?? OPENAI_BASE_URL);
      const key = apiKey ?? openAiKey;
      if (baseUrl === undefined && key === undefined) {
        throw new ModelConfigurationError(
          "PARLEY_MODEL_API_KEY",
          "The OpenAI-compatible model has neither a base URL nor an API key. Set PARLEY_MODEL_BASE_URL to your server " +
            "(e.g. http://localhost:11434/v1), or PARLEY_MODEL_API_KEY (or OPENAI_API_KEY) to use OpenAI.",
        );
      }
      const id = requireModelId(modelId, "openai-compatible");
      const openAiCompatible = createOpenAICompatible({ name: "openai-compatible", baseURL: url.href, apiKey: key });
      return {
        model: openAiCompatible.chatModel(id),
        kind,
        label: `${id} at ${url.host} (OpenAI-compatible)`,
        endpoint: { url: url.href, modelId: id, urlSetting: baseUrl === undefined ? "the provider's default" : "PARLEY_MODEL_BASE_URL", keySettings: ["PARLEY_MODEL_API_KEY", "OPENAI_API_KEY"] },
      };
    }

    case "anthropic": {
      const url = parseBaseUrl(baseUrl ?? ANTHROPIC_BASE_URL);
      const key = apiKey ?? anthropicKey;
      if (key === undefined) {
        throw new ModelConfigurationError(
          "ANTHROPIC_API_KEY",
          "The Anthropic model has no API key. Set ANTHROPIC_API_KEY (or PARLEY_MODEL_API_KEY).",
        );
      }
      const id = requireModelId(modelId, "anthropic");
      const anthropic = createAnthropic({ baseURL: url.href, apiKey: key });
      const where = baseUrl === undefined ? "" : ` at ${url.host}`;
      return {
        model: anthropic.languageModel(id),
        kind,
        label: `${id}${where} (Anthropic)`,
        endpoint: { url: url.href, modelId: id, urlSetting: baseUrl === undefined ? "the provider's default" : "PARLEY_MODEL_BASE_URL", keySettings: ["PARLEY_MODEL_API_KEY", "ANTHROPIC_API_KEY"] },
      };
    }
  }
}

function parseKind(provider: string): ModelKind {
  const kind = MODEL_KINDS.find((candidate) => candidate === provider.toLowerCase());
  if (kind === undefined) {
    throw new ModelConfigurationError(
      "PARLEY_MODEL_PROVIDER",
      `PARLEY_MODEL_PROVIDER is "${provider}"; set it to one of ${MODEL_KINDS.join(", ")} (or leave it unset to infer it).`,
    );
  }
  return kind;
}

function inferKind(settings: {
  modelId: string | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  openAiKey: string | undefined;
  anthropicKey: string | undefined;
}): ModelKind {
  const { modelId, baseUrl, apiKey, openAiKey, anthropicKey } = settings;
  if (modelId === undefined && baseUrl === undefined && apiKey === undefined) return "scripted";
  if (baseUrl !== undefined) return "openai-compatible";
  if (anthropicKey !== undefined && openAiKey === undefined) return "anthropic";
  if (openAiKey !== undefined && anthropicKey === undefined) return "openai-compatible";
  throw new ModelConfigurationError(
    "PARLEY_MODEL_PROVIDER",
    anthropicKey !== undefined
      ? "Both OPENAI_API_KEY and ANTHROPIC_API_KEY are set, so the provider is ambiguous. Set PARLEY_MODEL_PROVIDER to openai-compatible or anthropic."
      : "A model is configured (PARLEY_MODEL or PARLEY_MODEL_API_KEY) but its provider can't be inferred. Set PARLEY_MODEL_PROVIDER " +
          "to openai-compatible or anthropic, or PARLEY_MODEL_BASE_URL to an OpenAI-compatible server.",
  );
}

function requireModelId(modelId: string | undefined, kind: ModelKind): string {
  if (modelId === undefined) {
    throw new ModelConfigurationError(
      "PARLEY_MODEL",
      `The ${kind} model has no model id. Set PARLEY_MODEL (e.g. ${kind === "anthropic" ? "claude-sonnet-4-5" : "gpt-4.1 or llama3.1"}).`,
    );
  }
  return modelId;
}

function parseBaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ModelConfigurationError(
      "PARLEY_MODEL_BASE_URL",
      // The value is not echoed: a mistyped setting may hold a key.
      "PARLEY_MODEL_BASE_URL is not a valid URL. Set it to the API's base URL, e.g. http://localhost:11434/v1.",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ModelConfigurationError(
      "PARLEY_MODEL_BASE_URL",
      `PARLEY_MODEL_BASE_URL must be an http or https URL, not ${url.protocol}. Set it to the API's base URL, e.g. http://localhost:11434/v1.`,
    );
  }
  if (url.username || url.password) {
    // fetch refuses URLs with credentials; the key belongs in PARLEY_MODEL_API_KEY.
    throw new ModelConfigurationError(
      "PARLEY_MODEL_BASE_URL",
      "PARLEY_MODEL_BASE_URL contains a user name or password. Remove it and put the key in PARLEY_MODEL_API_KEY.",
    );
  }
  return url;
}
