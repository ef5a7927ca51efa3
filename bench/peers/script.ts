/**
 * The words every contender's conversation is made of, the same for Parley and LangGraph, so that
 * neither stores or replays more text than the other.
 */
export const BENCH_SCRIPT = {
  /** The agent's instructions (sent with every model call, never stored). */
  system: "You file expense claims. When something is missing, ask the person who filed it.",
  /** The one user turn that starts the work. */
  brief: "Claim 4711: 482.50 EUR at Hotel Adlon, Berlin, on 2026-11-03. No description was given.",
  /** What the agent asks, every time it asks. */
  question: "What was the 482.50 EUR charge at Hotel Adlon for?",
  /** What the person answers, every time. */
  answer: "Two nights for the client visit to Siemens; the invoice is attached to the claim.",
  /** The agent's final words once it has its answer. */
  done: "Thank you: the claim is complete and filed as client travel.",
} as const;
