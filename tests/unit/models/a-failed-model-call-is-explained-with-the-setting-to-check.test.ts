import { describe, expect, it } from "vitest";
import { explainModelFailure } from "@/lib/models/explain-failure";
import { resolveModel } from "@/lib/models/resolve-model";
import { createScriptedModel } from "@/lib/models/scripted-model";

const scripted = () => createScriptedModel({ name: "unused", respond: () => ({ text: "" }) });
const ollama = resolveModel({ PARLEY_MODEL_BASE_URL: "http://localhost:11434/v1", PARLEY_MODEL: "llama3.1" }, { scripted });
const openai = resolveModel({ PARLEY_MODEL: "gpt-4.1", OPENAI_API_KEY: "sk-test" }, { scripted });

describe("a failed model call", () => {
  it("that could not reach the model names PARLEY_MODEL_BASE_URL and the address it holds", () => {
    expect(explainModelFailure("Cannot connect to API: bad port", ollama)).toBe(
      "Parley could not reach the model at http://localhost:11434/v1: check PARLEY_MODEL_BASE_URL (http://localhost:11434/v1), and that the model server is running and reachable from Parley's machine.",
    );
  });

  it("refused for its key names the settings the key is read from", () => {
    expect(explainModelFailure("Incorrect API key provided: sk-test. (401)", openai)).toBe(
      "The model at https://api.openai.com/v1 refused Parley's API key: check PARLEY_MODEL_API_KEY or OPENAI_API_KEY.",
    );
  });

  it("asking for a model the server does not have names PARLEY_MODEL", () => {
    expect(explainModelFailure('model "llama3.1" not found, try pulling it first', ollama)).toMatch(/has no model called “llama3\.1”: check PARLEY_MODEL, and PARLEY_MODEL_BASE_URL/);
  });

  it("that timed out says the model did not answer in time and names the turn timeout", () => {
    expect(explainModelFailure("The model did not answer within the turn timeout (120000 ms).", ollama)).toMatch(/did not answer in time: .* PARLEY_TURN_TIMEOUT_MS/);
  });

  it("on the scripted model gets no advice: it reaches nothing", () => {
    expect(explainModelFailure("Cannot connect to API", resolveModel({}, { scripted }))).toBeNull();
  });

  it("whose cause says nothing to act on gets no advice, only its own words", () => {
    expect(explainModelFailure("upstream overloaded", ollama)).toBeNull();
  });
});
