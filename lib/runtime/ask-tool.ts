import { tool, zodSchema } from "ai";
import { z } from "zod";

/** The name the model sees for the ask tool. */
export const ASK_TOOL_NAME = "ask";

/** What the model passes when it asks. */
export const askInputSchema = z.object({
  question: z.string().min(1).describe("The question, in your own words, for the person who can answer it."),
  options: z.array(z.string().min(1)).optional().describe("Answers to offer, if the question has a few likely ones."),
});

/**
 * The ask tool. It has no `execute` on purpose: generation stops at the call, and the call waits
 * in the conversation, unanswered, until a person's answer is written as its result.
 */
export const askTool = tool({
  description:
    "Ask a person a question only they can answer. Your work waits until they reply; their words come back as this tool's result.",
  // Wrapped once, so its JSON schema is worked out once rather than on every model call.
  inputSchema: zodSchema(askInputSchema),
});
