import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, json, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { QuestionSpec } from "../types/question-spec";
import type { WorkflowDescription } from "../types/workflow-description";
import { users } from "./users";

/**
 * What a workflow instance is doing, as its task reads it. `cancelled`: an operator stopped it
 * (`runtime.cancelRun`); like `completed` and `failed` it has ended, and nothing of it runs again.
 */
export const RUN_STATUSES = ["running", "waiting", "completed", "failed", "retryable", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * Where a run stands, as the operators' list filters it. `nothing` is a run that ended in failure
 * because a question got no answer (its reason recorded: away, expired, refused, non-interactive);
 * `failed` is any other failure, including a model error that can be retried; `cancelled`, a run an
 * operator cancelled (the questions it withdrew do not make it `nothing`).
 */
export const RUN_STATES = ["running", "waiting", "completed", "failed", "nothing", "cancelled"] as const;
export type RunState = (typeof RUN_STATES)[number];

/** One workflow over one task: which state it is in. */
export const workflowInstances = pgTable(
  "workflow_instances",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workflow: text("workflow").notNull(),
    taskId: uuid("task_id").notNull(),
    state: text("state").notNull(),
    status: text("status").$type<RunStatus>().notNull(),
    /** Bumped by every transition, so a transition computed from a stale read commits nothing. */
    version: integer("version").notNull().default(0),
    lastError: text("last_error"),
    /**
     * Why a question of the run got no answer, kept by the statement that sets the run `failed`
     * (db/queries/runs.ts' `nothingReasonOfRun`); null for a run that has not failed.
     */
    nothingReason: text("nothing_reason").$type<NothingReason>(),
    /** The run's state as lists filter it, kept by PostgreSQL from `status` and `nothing_reason`. */
    runState: text("run_state")
      .$type<RunState>()
      .generatedAlwaysAs(
        sql`case when status = 'failed' and nothing_reason is not null then 'nothing' when status in ('failed', 'retryable') then 'failed' else status end`,
      ),
    /**
     * The fingerprint of the workflow definition that last moved the run (`workflow_definitions`): the
     * one it started on, then the one it entered each state under. Where it is parked — its state, its
     * waits, its question's form — is that definition's, so a deploy that changes the workflow is
     * compared against it. Null for a run last moved before fingerprints were kept (migration 0028):
     * read as the workflow's first recorded definition.
     */
    definitionFingerprint: text("definition_fingerprint"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("workflow_instances_workflow_task_key").on(table.workflow, table.taskId),
    // The runs that have not ended, by workflow, definition and state: what a start counts of those a changed workflow breaks.
    index("workflow_instances_open_definition_idx")
      .on(table.workflow, table.definitionFingerprint, table.state)
      .where(sql`${table.status} in ('running', 'waiting', 'retryable')`),
    // A task's run (run page, question page, the registry's workflow of a task) is one index probe.
    index("workflow_instances_task_idx").on(table.taskId),
    // The runs list pages newest first through one of these (read backwards), whatever the tab and workflow.
    index("workflow_instances_newest_idx").on(table.createdAt, table.taskId),
    index("workflow_instances_state_newest_idx").on(table.runState, table.createdAt, table.taskId),
    index("workflow_instances_workflow_newest_idx").on(table.workflow, table.createdAt, table.taskId),
    index("workflow_instances_workflow_state_newest_idx").on(table.workflow, table.runState, table.createdAt, table.taskId),
  ],
);

/**
 * The workflow definitions a deployment has run, each as data (lib/runtime/workflow-description.ts)
 * under its fingerprint: written by every start of a server (a definition already kept is left as it
 * is), so a later start can tell what a deploy changed for the runs parked on an older one.
 */
export const workflowDefinitions = pgTable(
  "workflow_definitions",
  {
    workflow: text("workflow").notNull(),
    fingerprint: text("fingerprint").notNull(),
    description: jsonb("description").$type<WorkflowDescription>().notNull(),
    /** When a server first started with it. */
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.workflow, table.fingerprint] })],
);

/** One agent's memory of one task. Its messages are appended, never rewritten. */
export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    agent: text("agent").notNull(),
    taskId: uuid("task_id").notNull(),
    /**
     * How many messages it has: each append takes the next `seq` numbers from here under this row's
     * lock, so messages are numbered in the order they commit and a reader that has the first n
     * needs only those after n.
     */
    messageCount: integer("message_count").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("conversations_agent_task_key").on(table.agent, table.taskId)],
);

/** One AI SDK model message of a conversation, in order of `seq`. */
export const conversationMessages = pgTable(
  "conversation_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id),
    /** Its place in the conversation, from 1 (see `conversations.message_count`). */
    seq: integer("seq").notNull(),
    role: text("role").notNull(),
    /** The `ModelMessage` exactly as the AI SDK takes it back. */
    message: jsonb("message").notNull(),
    /** Set on a person's answer: the ask call it is the result of (one result per call). */
    toolCallId: text("tool_call_id"),
    /** Which job step wrote it, so a handler run again finds its model step already done. */
    stepKey: text("step_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("conversation_messages_seq_key").on(table.conversationId, table.seq),
    uniqueIndex("conversation_messages_tool_result_key")
      .on(table.conversationId, table.toolCallId)
      .where(sql`${table.toolCallId} is not null`),
    index("conversation_messages_step_idx")
      .on(table.conversationId, table.stepKey)
      .where(sql`${table.stepKey} is not null`),
  ],
);

/**
 * Why a question ended with nothing. Only `declined` is a person's decision about the question ("I
 * can't answer this", with a note for the asker); `cancelled` is its asker's withdrawal; the others
 * say nobody was there to answer.
 */
export const NOTHING_REASONS = ["refused", "away", "non-interactive", "expired", "cancelled", "unavailable", "declined"] as const;
export type NothingReason = (typeof NOTHING_REASONS)[number];

/** The longest note a person may leave for the asker when they decline a question, in characters. */
export const DECLINE_NOTE_MAX_LENGTH = 1000;

/** Where a question is in its life: waiting, answered by a person, or closed with nothing (see `reason`). */
export type QuestionStatus = "open" | "answered" | "nothing";

/**
 * The platform's question record, one road for both askers: an agent's pending ask call (a
 * one-field spec; `conversation_id`/`agent`/`tool_call_id` set) and a flow's questionnaire put to a
 * person (`workflow`/`event` name the flow's own schema in code). `spec` is lib/questions'
 * serialisable QuestionSpec; the schema itself is never stored.
 */
export const asks = pgTable(
  "asks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    conversationId: uuid("conversation_id").references(() => conversations.id),
    agent: text("agent"),
    taskId: uuid("task_id").notNull(),
    toolCallId: text("tool_call_id"),
    workflowInstanceId: uuid("workflow_instance_id").references(() => workflowInstances.id),
    /** The workflow and event an answer is deposited as. */
    workflow: text("workflow"),
    event: text("event"),
    /** The slot that takes the answer (who may answer, by when). */
    slotId: uuid("slot_id"),
    /** Which job step asked it, so a handler run again does not ask twice. */
    stepKey: text("step_key"),
    title: text("title"),
    spec: jsonb("spec").$type<QuestionSpec>().notNull(),
    /**
     * For a questionnaire whose schema came with the ask as data (an API caller's JSON Schema), that
     * schema: answers are judged by it. Null when the schema is in code (a flow's) or for an agent's ask.
     */
    // `json`, not `jsonb`: its properties are asked in the order the asker wrote them.
    responseSchema: json("response_schema").$type<Record<string, unknown>>(),
    attemptsAllowed: integer("attempts_allowed").notNull().default(3),
    /** Submissions the flow's schema refused so far. */
    attemptsUsed: integer("attempts_used").notNull().default(0),
    status: text("status").$type<QuestionStatus>().notNull().default("open"),
    /** Set when the question ends with nothing (or, for an agent's ask, is about to). */
    reason: text("reason").$type<NothingReason>(),
    answer: jsonb("answer"),
    answeredBy: uuid("answered_by").references(() => users.id),
    /** Who ended it with nothing because they could not answer it (reason `declined`), and what they told the asker. */
    declinedBy: uuid("declined_by").references(() => users.id),
    declineNote: text("decline_note"),
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("asks_conversation_call_key").on(table.conversationId, table.toolCallId),
    index("asks_open_idx").on(table.conversationId).where(sql`${table.status} = 'open'`),
    index("asks_slot_idx").on(table.slotId).where(sql`${table.slotId} is not null`),
    index("asks_task_idx").on(table.taskId),
    // "Is anything still waiting on this task?" stays one index probe however long the task's history.
    index("asks_open_task_idx").on(table.taskId).where(sql`${table.status} = 'open'`),
    uniqueIndex("asks_step_key").on(table.stepKey).where(sql`${table.stepKey} is not null`),
    // The inbox: a person's open slots' questions still waiting, with what orders them, from the index alone.
    index("asks_open_slot_idx")
      .on(table.slotId, table.askedAt, table.id)
      .where(sql`${table.status} = 'open' and ${table.reason} is null`),
    // "Answered by me": a person's newest answers.
    index("asks_answered_by_idx").on(table.answeredBy, table.answeredAt).where(sql`${table.answeredBy} is not null`),
    // The SLA page's agent filter lists each agent that asked, one index step per name.
    index("asks_agent_idx").on(table.agent).where(sql`${table.agent} is not null`),
  ],
);

/** A wait: a workflow instance waiting for one event, who may deposit it, and its clock. */
export const slots = pgTable(
  "slots",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workflowInstanceId: uuid("workflow_instance_id")
      .notNull()
      .references(() => workflowInstances.id),
    workflow: text("workflow").notNull(),
    taskId: uuid("task_id").notNull(),
    state: text("state").notNull(),
    event: text("event").notNull(),
    /** The role the answerer plays (e.g. "Filer"); a label for screens. */
    role: text("role"),
    assigneeId: uuid("assignee_id").references(() => users.id),
    candidateIds: uuid("candidate_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** Groups whose members are candidates too, as they are when they answer (membership is read live). */
    candidateGroupIds: uuid("candidate_group_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** A candidate who said "I'll take it": while set, only they (and the assignee) may answer. */
    claimedBy: uuid("claimed_by").references(() => users.id),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    /** The person the question was meant for, who was away and named `assignee_id` as their delegate. */
    delegatedFrom: uuid("delegated_from").references(() => users.id),
    /** `closed`: the question ended with nothing (refused, away, non-interactive); nobody answered. */
    status: text("status").$type<"open" | "finished" | "expired" | "cancelled" | "closed">().notNull().default("open"),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }),
    finishedBy: uuid("finished_by").references(() => users.id),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** How long the slot was open, in milliseconds: "it waited 15 hours for Sam". */
    waitMs: bigint("wait_ms", { mode: "number" }),
    /**
     * The agent whose question the slot was opened for (the earliest of the asks handed to it as it
     * opened); null for a flow's own question. The SLA history groups waits by it without looking up
     * each wait's asks.
     */
    agent: text("agent"),
    payload: jsonb("payload"),
  },
  (table) => [
    // "What may I answer?": the slots naming someone as a candidate, and those put to groups.
    index("slots_open_candidates_idx").using("gin", table.candidateIds).where(sql`${table.status} = 'open'`),
    index("slots_open_candidate_groups_idx").using("gin", table.candidateGroupIds).where(sql`${table.status} = 'open'`),
    // A person's assigned waits in due order (no deadline last), as the inbox pages them: a page is a stretch of this index.
    index("slots_open_assignee_idx")
      .on(table.assigneeId, sql`coalesce(${table.dueAt}, 'infinity'::timestamptz)`, table.openedAt, table.id)
      .where(sql`${table.status} = 'open'`),
    // Waits put to groups, by their set of groups, in due order and by when they opened: a team's inbox walks its
    // set's stretch as far as a page needs, and the sets are listed by a skip scan (db/queries/open-slot-walks.ts).
    index("slots_open_groups_due_idx")
      .on(table.candidateGroupIds, sql`coalesce(${table.dueAt}, 'infinity'::timestamptz)`, table.openedAt, table.id)
      .where(sql`${table.status} = 'open' and ${table.candidateGroupIds} <> '{}'::uuid[]`),
    index("slots_open_groups_opened_idx")
      .on(table.candidateGroupIds, table.openedAt, table.id)
      .where(sql`${table.status} = 'open' and ${table.candidateGroupIds} <> '{}'::uuid[]`),
    // What a person took ("I'll take it") and was not assigned: their Assigned to me, in due order, beside slots_open_assignee_idx.
    index("slots_open_claimed_idx")
      .on(table.claimedBy, sql`coalesce(${table.dueAt}, 'infinity'::timestamptz)`, table.openedAt, table.id)
      .where(sql`${table.status} = 'open' and ${table.claimedBy} is not null`),
    // The SLA sweep reads open slots in due order.
    index("slots_open_due_idx").on(table.dueAt).where(sql`${table.status} = 'open' and ${table.dueAt} is not null`),
    // An instance waits for an event in at most one place at a time.
    uniqueIndex("slots_open_instance_event_key")
      .on(table.workflowInstanceId, table.event)
      .where(sql`${table.status} = 'open'`),
    index("slots_instance_idx").on(table.workflowInstanceId),
    // Whom a run waits on, and whether a wait of it expired: one index probe per run listed.
    index("slots_task_idx").on(table.taskId),
    // SLA numbers read the waits that ended in a period (answered, expired, closed, cancelled) from this index alone:
    // it holds every column they need, so a week of waits is read without visiting the table.
    index("slots_ended_idx")
      .on(
        table.finishedAt,
        table.id,
        table.status,
        table.waitMs,
        table.dueAt,
        table.finishedBy,
        table.assigneeId,
        table.agent,
        table.workflow,
        table.candidateGroupIds,
      )
      .where(sql`${table.status} <> 'open'`),
    // Outstanding work, soonest due first and no deadline last: a page of it is a page of this index.
    index("slots_open_due_order_idx")
      .on(sql`coalesce(${table.dueAt}, 'infinity'::timestamptz)`, table.openedAt, table.id)
      .where(sql`${table.status} = 'open'`),
    // "Answered by me": the slots a person finished, newest first.
    index("slots_finished_by_idx").on(table.finishedBy, table.finishedAt).where(sql`${table.finishedBy} is not null`),
    // The SLA page's workflow filter lists each workflow that waited, one index step per name.
    index("slots_workflow_idx").on(table.workflow),
    // Outstanding work of one workflow, or one agent, soonest due first: a page of the filtered table is a stretch of one of these.
    index("slots_open_workflow_due_idx")
      .on(table.workflow, sql`coalesce(${table.dueAt}, 'infinity'::timestamptz)`, table.openedAt, table.id)
      .where(sql`${table.status} = 'open'`),
    index("slots_open_agent_due_idx")
      .on(table.agent, sql`coalesce(${table.dueAt}, 'infinity'::timestamptz)`, table.openedAt, table.id)
      .where(sql`${table.status} = 'open' and ${table.agent} is not null`),
  ],
);

/** What an escalation step does when its moment comes: remind who has the wait, or widen it to a group. */
export type EscalationAction = { kind: "remind" } | { kind: "add-group"; groupId: string; group: string };

/**
 * An escalation chain, as data: each step of a slot with the moment it is due. The SLA sweep fires a
 * due step by one conditional update of `fired_at`, so each fires once, across restarts.
 */
export const slotEscalations = pgTable(
  "slot_escalations",
  {
    slotId: uuid("slot_id")
      .notNull()
      .references(() => slots.id, { onDelete: "cascade" }),
    step: integer("step").notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    action: jsonb("action").$type<EscalationAction>().notNull(),
    firedAt: timestamp("fired_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.slotId, table.step] }),
    index("slot_escalations_due_idx").on(table.dueAt).where(sql`${table.firedAt} is null`),
  ],
);

/**
 * A question one person put out of their sight until a moment ("snooze"): it leaves their inbox's views
 * (it still counts against its SLA, and everyone else it is put to still sees it) and comes back on its
 * own when `until` passes. One row per question and person; snoozing again moves `until`.
 */
export const questionSnoozes = pgTable(
  "question_snoozes",
  {
    questionId: uuid("question_id")
      .notNull()
      .references(() => asks.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    until: timestamp("until", { withTimezone: true }).notNull(),
    snoozedAt: timestamp("snoozed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.questionId, table.userId] }), index("question_snoozes_user_idx").on(table.userId, table.until)],
);

/** What a job does: run a state's `enter`, an `on <Event>` handler, or an expired slot's `unfinished`. */
export type JobKind = "enter" | "event" | "expire";

/** Durable work, claimed with `FOR UPDATE SKIP LOCKED` by whichever runtime instance gets there first. */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").$type<JobKind>().notNull(),
    workflowInstanceId: uuid("workflow_instance_id")
      .notNull()
      .references(() => workflowInstances.id),
    /** The state the instance must be in for this job to apply. */
    state: text("state").notNull(),
    slotId: uuid("slot_id").references(() => slots.id),
    payload: jsonb("payload"),
    status: text("status").$type<"queued" | "running" | "done" | "failed">().notNull().default("queued"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /**
     * The trace the job was queued in (W3C trace context: `traceparent`, `tracestate`), when tracing
     * is on: whichever instance runs the job continues that trace (lib/runtime/tracing.ts).
     */
    traceContext: jsonb("trace_context").$type<Record<string, string>>(),
  },
  (table) => [
    index("jobs_queued_idx").on(table.runAt, table.id).where(sql`${table.status} = 'queued'`),
    index("jobs_running_idx").on(table.lockedUntil).where(sql`${table.status} = 'running'`),
    // The failed jobs (runs that can be retried, and ones that cannot): counted for the metrics without reading every job.
    index("jobs_failed_idx").on(table.id).where(sql`${table.status} = 'failed'`),
    index("jobs_instance_idx").on(table.workflowInstanceId),
    // One job per instance at a time: the claim skips instances with a running job, and this index refuses the second
    // of two claims that raced (each statement's snapshot taken before the other committed).
    uniqueIndex("jobs_running_instance_idx").on(table.workflowInstanceId).where(sql`${table.status} = 'running'`),
  ],
);

/** The kinds of run event, noun-verb. */
export const RUN_EVENT_KINDS = [
  "run-started",
  "state-entered",
  "turn-started",
  "turn-finished",
  "turn-failed",
  "tool-called",
  "question-asked",
  "parked",
  "answered",
  "answer-refused",
  "nothing",
  "resumed",
  "slot-opened",
  "slot-expired",
  "slot-reassigned",
  "slot-claimed",
  "slot-unclaimed",
  "escalated",
  "failed",
  /** Someone queued a retryable run's failed work again. */
  "retried",
  "completed",
  "cancelled",
] as const;
export type RunEventKind = (typeof RUN_EVENT_KINDS)[number];

/** The append-only stream of what happened in a task's runs. */
export const runEvents = pgTable(
  "run_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    taskId: uuid("task_id").notNull(),
    workflowInstanceId: uuid("workflow_instance_id"),
    kind: text("kind").$type<RunEventKind>().notNull(),
    agent: text("agent"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (table) => [index("run_events_task_idx").on(table.taskId, table.id)],
);

export type WorkflowInstance = typeof workflowInstances.$inferSelect;
export type WorkflowDefinitionRow = typeof workflowDefinitions.$inferSelect;
export type Slot = typeof slots.$inferSelect;
export type Job = typeof jobs.$inferSelect;
export type RunEvent = typeof runEvents.$inferSelect;
export type Ask = typeof asks.$inferSelect;
