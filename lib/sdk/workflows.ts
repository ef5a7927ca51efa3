/**
 * `parley/workflows`: what an app built on Parley imports — and all it imports of Parley. An app
 * (`examples/*`, or a team's own folder named in parley.config.ts) declares its workflows, agents and
 * start forms with these, keeps its own tables with drizzle-orm on the database handle Parley hands
 * it, and tests itself with `parley/testing`. Lint holds `examples/` to this entry (eslint.config.mjs),
 * so what is exported here is the surface Parley keeps stable for adopters; everything else of `lib/`
 * and `db/` may change under them. Each export is the platform's own implementation, re-exported.
 * See docs/sdk.md.
 */

// The registry: an app, its workflows' entries (label, start form, how tasks are described), parley.config.ts.
export {
  type AgainDefinition,
  type AppDefinition,
  type ContextFact,
  type ContextPanel,
  defineApp,
  defineParley,
  defineStart,
  type DemoContext,
  type ParleyApp,
  type ParleyConfig,
  type ScriptedModels,
  type StartContext,
  type StartDefinition,
  type StartFormContext,
  type StartPerson,
  type TaskSubject,
  type WorkflowEntry,
} from "@/lib/registry/define-app";
export { personChoice } from "@/lib/registry/person-choice";

// A workflow that keeps nothing of its own tracks the platform's `tasks` table (no migrations needed).
export {
  describePlatformTasks,
  findPlatformTask,
  inputFacts,
  type PlatformInputOf,
  type PlatformTaskOf,
  startPlatformTask,
  type Task,
  tasks,
} from "@/lib/registry/platform-tasks";

// Workflows and agents: states, slots and SLA clocks; agents that ask a person and park.
export {
  type Agent,
  type AgentAnswer,
  agentAnswered,
  type AgentNamesOf,
  type AgentReply,
  answerOf,
  ASK_TOOL_NAME,
  type AskedQuestion,
  type AskPersonOptions,
  defineAgent,
  defineWorkflow,
  type Duration,
  type Escalation,
  type EscalationAction,
  type EscalationStep,
  type EventSchemas,
  group,
  type GroupRecipient,
  type ItemOf,
  type NothingReason,
  person,
  type PersonAnswer,
  type Recipient,
  type RegisteredWorkflow,
  type RunHandle,
  type Runtime,
  type StartInput,
  type StartInputOf,
  type StartInputSchema,
  type StateDefinition,
  type Subscription,
  type TaskReference,
  type TerminalKind,
  type TrackedTable,
  type Transition,
  turn,
  type Workflow,
  type WorkflowAgents,
} from "@/lib/runtime";

// The scripted model: what an agent runs on in demo mode and in tests (the registry entry's `scripted`).
export { createScriptedModel, type ScriptedModel, type ScriptedReply, type ScriptedResponder, type ScriptedToolCall } from "@/lib/models/scripted-model";

// Refusals a person is told in words (a start that conflicts, an item not found): `throw new AppError(code, message)`.
export { AppError, type ErrorCode, isAppError } from "@/lib/errors";

/**
 * The database handle Parley hands an app (`run.db`, a start's and `describe`'s `db`): drizzle over
 * PGlite or PostgreSQL, on which the app reads and writes its own tables. {@link queryRows} runs raw
 * SQL on it whichever driver is underneath.
 */
export { type Db, queryRows } from "@/db/client";

/**
 * The platform's tables an app may refer to: `users` (the people — a foreign key to who filed or
 * answers something, who may be asked), and a run's status as `workflow_instances.status` holds it.
 */
export { type Role, type RunStatus, type User, users } from "@/db/schema";
