/**
 * The OpenAI Agents SDK adapter: tools declared with `needsApproval` become Parley asks, the run's
 * `RunState` is kept in a store of your choosing while a person decides, and the run resumes with their
 * decisions — hours later, in another process. See docs/agent-frameworks/openai-agents.md.
 */
export {
  type ApprovalDecision,
  type ApprovalQuestion,
  type InterruptedRun,
  type ParleyApprovals,
  type ParleyApprovalsOptions,
  type PendingApproval,
  parleyApprovals,
  type ResumeOptions,
  type ResumeOutcome,
  RUN_ID_METADATA_KEY,
  runIdOfAsk,
} from "./parley-approvals.js";
export { fileRunStateStore, memoryRunStateStore, type RunStateStore } from "./run-state-store.js";
