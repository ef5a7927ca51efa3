import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The README's "Use from your agent framework" section quotes each example whole: a fenced block
 * right after `<!-- example: PATH -->`. A quoted example that drifts from the file (which its test
 * runs) would teach code nobody checked.
 */
const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
const QUOTED = [...README.matchAll(/<!-- example: (\S+) -->\s*\n```[a-z]*\n([\s\S]*?)```/g)].map((match) => ({ file: match[1]!, code: match[2]! }));

describe("the README's agent-framework examples", () => {
  it("quotes an example for the AI SDK, LangGraph, the OpenAI Agents SDK and Python", () => {
    const folders = QUOTED.map((quote) => quote.file.split("/").slice(0, -1).join("/"));
    for (const expected of ["examples/agent-frameworks/ai-sdk", "examples/agent-frameworks/langgraph", "examples/agent-frameworks/openai-agents", "examples/python"]) {
      expect(folders.some((folder) => folder.startsWith(expected)), expected).toBe(true);
    }
  });

  it.each(QUOTED.map((quote) => [quote.file, quote.code] as const))("quotes %s exactly as it is", (file, code) => {
    expect(code.trimEnd()).toBe(readFileSync(path.join(ROOT, file), "utf8").trimEnd());
  });

  it.each(QUOTED.map((quote) => [quote.file, quote.code] as const))("keeps %s under 30 lines", (_, code) => {
    expect(code.trimEnd().split("\n").length).toBeLessThan(30);
  });
});
