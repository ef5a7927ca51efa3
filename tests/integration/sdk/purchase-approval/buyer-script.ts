import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { ASK_TOOL_NAME, createScriptedModel, type ScriptedModel, type ScriptedReply } from "parley/workflows";

/** Purchases up to this many cents need no reason. */
const SMALL_PURCHASE_CENTS = 50_000;

function field(text: string, name: string): string {
  return new RegExp(`^${name}:\\s*(.*)$`, "im").exec(text)?.[1]?.trim() ?? "";
}

/** The request the buyer was given, and what the requester answered it since. */
function read(prompt: LanguageModelV3Prompt): { item: string; cents: number; answers: string[] } | undefined {
  const brief = prompt.find((message) => message.role === "user");
  if (!brief || brief.role !== "user") return undefined;
  const text = brief.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  const answers = prompt.flatMap((message) =>
    message.role === "tool"
      ? message.content.flatMap((part) => (part.type === "tool-result" && part.toolName === ASK_TOOL_NAME && part.output.type === "text" ? [part.output.value] : []))
      : [],
  );
  return { item: field(text, "Item"), cents: Number(field(text, "Cents")), answers };
}

/** The scripted buyer: a purchase over 500.00 needs a reason, asked of the requester; then it writes its line. */
export function buyerScript(prompt: LanguageModelV3Prompt): ScriptedReply {
  const request = read(prompt);
  if (!request) return { text: "I need a request to check." };
  if (request.cents <= SMALL_PURCHASE_CENTS) return { text: `Justified: a small purchase (${request.item}).` };
  const [answer] = request.answers;
  if (answer === undefined) return { toolCalls: [{ toolName: ASK_TOOL_NAME, input: { question: `Why does the team need ${request.item}?` } }] };
  return { text: `Justified: ${answer}` };
}

/** The scripted model the buyer runs on. */
export function createBuyerModel(): ScriptedModel {
  return createScriptedModel({ name: "buyer-script", respond: (prompt) => buyerScript(prompt) });
}
