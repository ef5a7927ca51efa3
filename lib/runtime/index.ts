/** Parley's runtime: agents that ask a person and park, workflows with slots and SLA clocks. */
export type { AgentReply, AskedQuestion } from "./agent-reply";
export type { Checkpoint } from "./agent-turns";
export { ASK_TOOL_NAME, askTool } from "./ask-tool";
export { createRuntime, type Deposit, type RegisteredWorkflow, type Runtime, type RuntimeOptions, SLA_SWEEP_BATCH } from "./create-runtime";
export {
  type Agent,
  type AgentAnswer,
  agentAnswered,
  type AgentAnsweredEvent,
  type AgentDefinition,
  type AgentMemory,
  defineAgent,
  LOOP_ANSWER_EVENT,
  LOOP_PARK_STATE,
  type LoopWorkflow,
  type TaskReference,
} from "./define-agent";
export { checkWorkflows, definitionError, definitionFailureIn, definitionFailureMessage, isDefinitionFailure, questionnaireProblems } from "./definition-errors";
export {
  defineWorkflow,
  type EventSchemas,
  type RunHandle,
  type StateDefinition,
  type Subscription,
  type TerminalKind,
  type TrackedTable,
  type Transition,
  type Workflow,
  type WorkflowDefinition,
} from "./define-workflow";
export type { Duration } from "./duration";
export type { Escalation, EscalationAction, EscalationStep, SlaPercent } from "./escalation";
export { AGENT_ANSWER_FIELD, agentAskSchema, agentAskSpec, nothingText } from "./agent-question";
export type { Announce, RuntimeChange, RuntimeChangeKind } from "./announce";
export type { CloseQuestionResult, DeclineQuestionResult, QuestionDesk, QuestionUnavailable, SubmitAnswerResult, SubmittedAnswer } from "./answer-questions";
export { DECLINE_NOTE_MAX_LENGTH } from "@/db/schema";
export type { QuestionRow } from "@/db/queries/runtime-questions";
export type { NothingReason } from "@/db/schema";
export { answerOf, answerOfGivenSchema, type AskPersonOptions, isAnswerEvent, person, type PersonAnswer, type PersonAsked, type QuestionnaireEvent, questionnaireOf } from "./person";
export type { ReassignSlotResult, SlotReassigner, SlotReassignment } from "./reassign-slot";
export type { ClaimSlotResult, SlotClaimer } from "./claim-slot";
export type { CancelledRun, RunCanceller } from "./cancel-run";
export { group, type GroupRecipient, type Recipient } from "./recipients";
export { startWorker, type Worker, type WorkerStopped } from "./start-worker";
export { turn } from "./turn";
export {
  canonicalJson,
  describeWorkflow,
  type EventDescription,
  fingerprintOf,
  type JsonSchema,
  schemaDescription,
  shortFingerprint,
  type StateDescription,
  type WorkflowDefinitionRecord,
  workflowDefinition,
  type WorkflowDescription,
} from "./workflow-description";
export { changesAffecting, compareDefinitions, type DefinitionChange, type DefinitionChangeKind, eventsOfState, type Narrowing, type ParkedAt, schemaNarrowings } from "./definition-changes";
