import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { ASK_TOOL_NAME, createScriptedModel, type ScriptedModel, type ScriptedReply } from "parley/workflows";
import { formatDecision } from "./claim-brief";

/** Below this many words an answer does not explain a charge. */
const THIN_ANSWER_WORDS = 6;
/** Claims up to this amount with a real description need no question. */
const SELF_EXPLAINING_LIMIT = 100;
const PERSONAL = /\b(personal|myself|my own|vacation|holiday|birthday|gift for me)\b/i;

interface ClaimFacts {
  merchant: string;
  amount: string;
  amountValue: number;
  date: string;
  description: string;
}

function field(text: string, name: string): string {
  return new RegExp(`^${name}:\\s*(.*)$`, "im").exec(text)?.[1]?.trim() ?? "";
}

function claimFacts(prompt: LanguageModelV3Prompt): ClaimFacts | undefined {
  for (const message of prompt) {
    if (message.role !== "user") continue;
    const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    if (!/^Review this claim\./m.test(text)) continue;
    const amount = field(text, "Amount");
    return {
      merchant: field(text, "Merchant"),
      amount,
      amountValue: Number(amount.replace(/[^0-9.]/g, "")),
      date: field(text, "Date"),
      description: field(text, "Description"),
    };
  }
  return undefined;
}

/** The answers people gave to the Auditor's asks, in order. */
function answers(prompt: LanguageModelV3Prompt): string[] {
  return prompt.flatMap((message) =>
    message.role === "tool"
      ? message.content.flatMap((part) =>
          part.type === "tool-result" && part.toolName === ASK_TOOL_NAME && part.output.type === "text" ? [part.output.value] : [],
        )
      : [],
  );
}

function wordCount(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

/**
 * How the scripted Auditor behaves: it asks about a charge the record can't explain, asks once more
 * if the answer is too thin, then approves or rejects with a reason.
 */
export function auditorScript(prompt: LanguageModelV3Prompt): ScriptedReply {
  const claim = claimFacts(prompt);
  if (!claim) return { text: "I need a claim to review." };
  const given = answers(prompt);
  const explained = wordCount(claim.description) >= 8 && claim.amountValue <= SELF_EXPLAINING_LIMIT;

  if (given.length === 0) {
    if (explained) return { text: formatDecision({ decision: "approved", reason: `The description explains the ${claim.amount} charge.` }) };
    return {
      toolCalls: [
        {
          toolName: ASK_TOOL_NAME,
          input: {
            question: `What was the ${claim.amount} charge at ${claim.merchant} on ${claim.date} for? The claim doesn't say enough to explain it.`,
          },
        },
      ],
    };
  }

  const last = given.at(-1) ?? "";
  if (given.length === 1 && wordCount(last) < THIN_ANSWER_WORDS) {
    return {
      toolCalls: [
        {
          toolName: ASK_TOOL_NAME,
          input: {
            question: `"${last}" is not enough to go on. Who was the ${claim.merchant} charge for, and what was the business purpose?`,
            options: ["A client meeting", "Team travel", "Personal — I'll repay it"],
          },
        },
      ],
    };
  }

  const all = given.join(" ");
  if (PERSONAL.test(all)) {
    return { text: formatDecision({ decision: "rejected", reason: `The ${claim.merchant} charge was personal, by the filer's own account: "${last}".` }) };
  }
  if (wordCount(all) < THIN_ANSWER_WORDS) {
    return { text: formatDecision({ decision: "rejected", reason: `Nobody explained the ${claim.amount} charge at ${claim.merchant}.` }) };
  }
  return { text: formatDecision({ decision: "approved", reason: `The filer explained the ${claim.merchant} charge: "${last}".` }) };
}

/** The scripted model the demo Auditor runs on when no real model is configured. */
export function createAuditorModel(): ScriptedModel {
  return createScriptedModel({ name: "auditor-script", respond: (prompt) => auditorScript(prompt) });
}
