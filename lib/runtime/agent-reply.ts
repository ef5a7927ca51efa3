/** A question an agent put to a person, in its own words. */
export interface AskedQuestion {
  /** The platform's question record id (the ask). */
  readonly id: string;
  /** The model's tool call this question is; the answer becomes its result. */
  readonly toolCallId: string;
  readonly agent: string;
  readonly text: string;
  readonly options?: readonly string[];
}

/**
 * What `agent.ask` and `agent.answer` both return. Callers branch on `parked`: a parked reply
 * means the work is waiting for a person, and the workflow must go somewhere it can wait.
 */
export type AgentReply =
  | {
      readonly parked: true;
      /** The first of `questions`; most steps ask one. */
      readonly question: AskedQuestion;
      /** Every question still unanswered, oldest first. */
      readonly questions: readonly AskedQuestion[];
      /** Any text the model wrote beside its question. */
      readonly text: string;
    }
  | { readonly parked: false; readonly text: string };
