/** Parley's runtime: agents that ask a person and park, workflows with slots and SLA clocks. */
/** The authoring vocabulary (types.ts): what a workflow or agent author writes against. */
export type {
  Agent,
  AgentAnswer,
  AgentAnsweredEvent,
  AgentDefinition,
  AgentMemory,
  AgentNamesOf,
  AgentReply,
  AnyWorkflow,
  AskedQuestion,
  AskPersonOptions,
  Duration,
  Escalation,
  EscalationAction,
  EscalationStep,
  EventSchemas,
  GroupRecipient,
  ItemOf,
  LoopWorkflow,
  NothingReason,
  PersonAnswer,
  PersonAsked,
  QuestionnaireEvent,
  Recipient,
  RunHandle,
  SlaPercent,
  StartInput,
  StartInputOf,
  StartInputSchema,
  StateDefinition,
  Subscription,
  TaskReference,
  TerminalKind,
  TrackedTable,
  Transition,
  Workflow,
  WorkflowAgents,
  WorkflowDefinition,
  WorkflowItem,
} from "./types";
export type { Checkpoint } from "./agent-turns";
export { ASK_TOOL_NAME, askTool } from "./ask-tool";
export { createRuntime, type Deposit, type RegisteredWorkflow, type Runtime, type RuntimeOptions, SLA_SWEEP_BATCH } from "./create-runtime";
export { agentAnswered, defineAgent, LOOP_ANSWER_EVENT, LOOP_PARK_STATE } from "./define-agent";
export { checkWorkflows, definitionError, definitionFailureIn, definitionFailureMessage, isDefinitionFailure, markChecked, questionnaireProblems, workflowProblems } from "./definition-errors";
export { defineWorkflow } from "./define-workflow";
export { AGENT_ANSWER_FIELD, agentAskSchema, agentAskSpec, nothingText } from "./agent-question";
export type { Announce, RuntimeChange, RuntimeChangeKind } from "./announce";
export type { CloseQuestionResult, DeclineQuestionResult, QuestionDesk, QuestionUnavailable, SubmitAnswerResult, SubmittedAnswer } from "./answer-questions";
export { DECLINE_NOTE_MAX_LENGTH } from "@/db/schema";
export type { QuestionRow } from "@/db/queries/runtime-questions";
export { answerOf, answerOfGivenSchema, isAnswerEvent, person, questionnaireOf } from "./person";
export type { ReassignSlotResult, SlotReassigner, SlotReassignment } from "./reassign-slot";
export type { ClaimSlotResult, SlotClaimer } from "./claim-slot";
export type { CancelledRun, RunCanceller } from "./cancel-run";
export { group } from "./recipients";
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
