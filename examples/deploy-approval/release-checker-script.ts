import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { ASK_TOOL_NAME, createScriptedModel, type ScriptedModel, type ScriptedReply } from "parley/workflows";

/** Below this many words a rollback plan is too thin to go on. */
const THIN_PLAN_WORDS = 6;

function field(text: string, name: string): string {
  return new RegExp(`^${name}:\\s*(.*)$`, "im").exec(text)?.[1]?.trim() ?? "";
}

/** The release brief the checker was given: service, version, environment, whether the rollback was tested. */
function brief(prompt: LanguageModelV3Prompt): { service: string; version: string; environment: string; rollbackTested: boolean } | undefined {
  for (const message of prompt) {
    if (message.role !== "user") continue;
    const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    if (!/^Check this release\./m.test(text)) continue;
    return { service: field(text, "Service"), version: field(text, "Version"), environment: field(text, "Environment"), rollbackTested: field(text, "Rollback tested") === "yes" };
  }
  return undefined;
}

/** The approver's answers to the checker's asks, in order. */
function answers(prompt: LanguageModelV3Prompt): string[] {
  return prompt.flatMap((message) =>
    message.role === "tool"
      ? message.content.flatMap((part) => (part.type === "tool-result" && part.toolName === ASK_TOOL_NAME && part.output.type === "text" ? [part.output.value] : []))
      : [],
  );
}

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

/**
 * How the scripted release checker behaves: a production release whose rollback was not tested
 * makes it ask the approver for the rollback plan, again while the plan is too thin (or nobody
 * answered); then it writes its summary. A staging release, or a tested rollback, needs no question.
 */
export function releaseCheckerScript(prompt: LanguageModelV3Prompt): ScriptedReply {
  const release = brief(prompt);
  if (!release) return { text: "I need a release to check." };
  if (release.environment !== "production" || release.rollbackTested) {
    return { text: `Ready: ${release.service} ${release.version} to ${release.environment}; ${release.rollbackTested ? "the rollback was tested" : "staging needs no rollback plan"}.` };
  }
  const given = answers(prompt);
  const last = given.at(-1);
  if (last === undefined) {
    return { toolCalls: [{ toolName: ASK_TOOL_NAME, input: { question: `The rollback of ${release.service} ${release.version} was not tested. If it fails in production, how do we roll back, and who does it?` } }] };
  }
  if (words(last) < THIN_PLAN_WORDS && given.length < 3) {
    return { toolCalls: [{ toolName: ASK_TOOL_NAME, input: { question: `"${last}" is too thin to go on. Which steps roll ${release.service} back to the version before ${release.version}, and how long do they take?` } }] };
  }
  return { text: `Ready: ${release.service} ${release.version} to production, rollback plan: "${given.join(" / ")}".` };
}

/** The scripted model the release checker runs on when no real model is configured. */
export function createReleaseCheckerModel(): ScriptedModel {
  return createScriptedModel({ name: "release-checker-script", respond: (prompt) => releaseCheckerScript(prompt) });
}
