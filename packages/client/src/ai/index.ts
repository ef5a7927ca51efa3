/**
 * Parley for the AI SDK (`ai` 6): a tool the model calls to ask a person, answered on a later step
 * without holding a request open ({@link askPersonTool}, {@link resolvePersonAnswers}), and the SDK's
 * tool approvals put to a person as Parley asks ({@link resolveApprovals}). See
 * docs/agent-frameworks/ai-sdk.md.
 */
export {
  askPersonTool,
  type AskPersonInput,
  type AskPersonTool,
  type AskPersonToolOptions,
  isPersonAskResult,
  isWaitingForPerson,
  type PersonAnswered,
  type PersonAskResult,
  type PersonNothing,
  type PersonTicket,
} from "./ask-person-tool.js";
export { resolvePersonAnswers, type ResolvedPersonAnswers, type ResolvePersonAnswersOptions } from "./resolve-person-answers.js";
export { type ApprovalAsk, type ApprovalAskOptions, type ApprovalDecision, askForApprovals, type ResolvedApprovals, resolveApprovals, type ResolveApprovalsOptions } from "./tool-approvals.js";
