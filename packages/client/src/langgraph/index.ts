/**
 * LangGraph JS and Parley: a node asks a person with {@link askPerson} (LangGraph's `interrupt()`),
 * {@link createParleyInterrupts} makes one Parley ask per pending interrupt, and the answers — from a
 * webhook or a long-poll — resume the thread with `Command({ resume })`. See
 * docs/agent-frameworks/langgraph.md.
 */
export { askPerson, type PersonAnswer, personAnswerOf, type PersonQuestion, personQuestion, type PersonRequest } from "./ask-person.js";
export { askInputOf, idempotencyKeyOf, type InterruptLink, interruptLinkOf, type PendingInterrupt, pendingInterrupts, type PendingWrite, resumeValueOf } from "./interrupt-asks.js";
export {
  createParleyInterrupts,
  type InterruptAsk,
  type InterruptCheckpointer,
  type InterruptibleGraph,
  type ParleyInterrupts,
  type ParleyInterruptsOptions,
  type PendingAsks,
  type ResumeOutcome,
  type ThreadConfig,
  type ThreadReference,
  type ThreadSettled,
} from "./parley-interrupts.js";
