import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { CallToolResult, Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import type { ApiKey } from "@/db/schema";
import type { AskService } from "@/lib/asks/asks";
import type { AskView } from "@/lib/asks/ask-view";
import { AppError, isAppError } from "@/lib/errors";
import { AskPersonArguments } from "./ask-arguments";
import { askPerson, awaited, awaitedText, toolResult } from "./ask-results";

/** How often a client polling an ask run as a task is told to ask again: a person takes minutes, not milliseconds. */
export const TASK_POLL_INTERVAL_MS = 5_000;

/** What an ask's task store is made of: the ask service and the key the request came with. */
export interface AskTaskStoreOptions {
  service: AskService;
  key: ApiKey;
  /** {@link TASK_POLL_INTERVAL_MS} unless a test needs it sooner. */
  pollIntervalMs?: number;
}

/** Where an ask stands, as a task: working while open; cancelled when withdrawn; completed when answered or nothing else. */
export function taskStatusOf(ask: AskView): Task["status"] {
  if (ask.status === "open") return "working";
  return ask.status === "nothing" && ask.reason === "cancelled" ? "cancelled" : "completed";
}

/** `ask_person`'s result when run as a task, for a finished ask: `await_answer`'s view, with the ask's page and reason as `ask_person` gives them. */
export function taskResultOf(ask: AskView): CallToolResult {
  const view = awaited(ask);
  return toolResult({ ...view, url: ask.url, reason: ask.reason }, awaitedText(view));
}

/**
 * The SDK's `TaskStore` over Parley's asks, for one API key: an `ask_person` run as a task is the
 * ask itself, so the task's id is the ask's id and its status and result are read from the ask's
 * record every time — nothing is held in memory, and any instance on the same database serves any
 * task. Another key's ask is not found. Sessions are not used (the server is stateless); the key is
 * the scope.
 */
export function createAskTaskStore(options: AskTaskStoreOptions): TaskStore {
  const { service, key } = options;
  const pollInterval = options.pollIntervalMs ?? TASK_POLL_INTERVAL_MS;

  function taskOf(ask: AskView): Task {
    const status = taskStatusOf(ask);
    const statusMessage =
      ask.status === "open"
        ? "Waiting for the person to answer."
        : ask.status === "answered"
          ? `${ask.answered_by?.name ?? "The person"} answered.`
          : `Nobody will answer (${ask.reason}).`;
    // The ask is kept as long as Parley keeps its questions: no ttl.
    return { taskId: ask.id, status, ttl: null, createdAt: ask.created_at, lastUpdatedAt: ask.answered_at ?? ask.created_at, pollInterval, statusMessage };
  }

  async function findAsk(taskId: string): Promise<AskView | null> {
    try {
      return await service.get(key, taskId);
    } catch (error) {
      if (isAppError(error) && error.code === "not_found") return null;
      throw error;
    }
  }

  return {
    /** Asks: `request` is the task-augmented `tools/call` of `ask_person`; the new ask's id is the task's. */
    async createTask(_taskParams: CreateTaskOptions, _requestId: RequestId, request: Request): Promise<Task> {
      const params = request.params as { name?: unknown; arguments?: unknown } | undefined;
      if (request.method !== "tools/call" || params?.name !== "ask_person") {
        throw new AppError("invalid_input", "Only ask_person runs as a task.");
      }
      const parsed = AskPersonArguments.safeParse(params.arguments ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new AppError("invalid_input", issue.message, issue.path.length > 0 ? { path: issue.path.join(".") } : {});
      }
      return taskOf(await askPerson(service, key, parsed.data));
    },

    async getTask(taskId) {
      const ask = await findAsk(taskId);
      return ask ? taskOf(ask) : null;
    },

    /** An ask's result is the person's answer (or nothing), stored when they answer: nothing else stores one. */
    async storeTaskResult(): Promise<void> {
      throw new AppError("conflict", "An ask's result is stored when the person answers, or when it closes with nothing.");
    },

    async getTaskResult(taskId): Promise<Result> {
      const ask = await service.get(key, taskId);
      if (ask.status === "open") throw new AppError("conflict", "Nobody has answered yet: the task is still working.");
      return taskResultOf(ask);
    },

    /** Only a cancel changes an ask from outside: it is withdrawn as `cancel_ask` withdraws it. */
    async updateTaskStatus(taskId, status) {
      if (status !== "cancelled") throw new AppError("conflict", `An ask becomes ${status} only when the person answers.`);
      await service.cancel(key, taskId);
    },

    async listTasks(cursor) {
      const page = await service.list(key, { cursor: cursor ?? null, limit: 100 });
      return { tasks: page.data.map(taskOf), ...(page.next_cursor ? { nextCursor: page.next_cursor } : {}) };
    },
  };
}
