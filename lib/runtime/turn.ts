import type { ModelMessage } from "ai";

/** Builders for the turns handed to `agent.ask`. */
export const turn = {
  /** A user turn: the instruction or material the agent works on. */
  user(text: string): ModelMessage {
    return { role: "user", content: text };
  },
} as const;
