import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  ListToolsRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type ListToolsResult,
  type Result,
} from "@modelcontextprotocol/sdk/types.js";
import type { ApiKey } from "@/db/schema";
import type { AskService } from "@/lib/asks/asks";
import { isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { taskResultOf } from "./ask-task-store";
import { ProtocolError } from "./protocol-error";

/** What serving `ask_person` as a task needs: the ask service, the request's key, how long `tasks/result` may wait. */
export interface AskPersonTaskOptions {
  service: AskService;
  key: ApiKey;
  /** The longest `tasks/result` holds its request for an open ask: `await_answer`'s bound. */
  maxWaitSeconds: number;
  /** Aborted when the HTTP request goes away. */
  signal?: AbortSignal;
}

type Handler = (request: unknown, extra: unknown) => Promise<Result>;

/**
 * The handler the SDK installed for `method`, so that Parley's can run in front of it. The SDK gives
 * no public way to reach it; `@modelcontextprotocol/sdk` is pinned, and this fails at once, not
 * quietly, if a version keeps its handlers elsewhere.
 */
export function installedHandler(server: McpServer, method: string): Handler {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const handler = handlers?.get(method);
  if (!handler) throw new Error(`The MCP SDK has no ${method} handler for Parley to serve tasks in front of.`);
  return handler;
}

/** A refusal as a JSON-RPC error in `ask_person`'s terms: a task-augmented call has no tool result to carry it. */
function protocolError(error: unknown): unknown {
  if (error instanceof McpError || error instanceof ProtocolError) return error;
  if (isAppError(error)) {
    const text = `${error.code}${error.path ? ` (${error.path})` : ""}: ${error.message}`;
    return new ProtocolError(ErrorCode.InvalidParams, text, { code: error.code, message: error.message, ...(error.path ? { path: error.path } : {}) });
  }
  log.error({ err: error }, "Parley MCP: a task call failed.");
  return new ProtocolError(ErrorCode.InternalError, "internal: Something went wrong in Parley; try again.");
}

/**
 * Serves `ask_person` as an MCP task (2025-11-25 `tasks`) to a client that asks for one, and the
 * two-tool pattern to every other. The SDK's `McpServer` (1.32.2) can do neither alone: a tool it
 * lists with `taskSupport: "optional"` is, when called without a task, held open until the task ends
 * (`handleAutomaticTaskPolling`) — here, until a person answers — and a refusal inside a task
 * creation comes back as an unreadable "Invalid task creation result". So `ask_person` stays an
 * ordinary tool, and in front of the SDK's handlers:
 *
 * - `tools/list` says `ask_person` takes tasks (`execution.taskSupport: "optional"`);
 * - a task-augmented `tools/call` of `ask_person` asks through the task store (the ask's id is the
 *   task's) and returns the task at once; a refusal is a JSON-RPC error naming the argument; any
 *   other tool refuses a task;
 * - `tasks/result` on an open ask waits for the answer as `await_answer` does, for at most its bound,
 *   then says the task is still working rather than hold the request (the SDK's handler would hold it
 *   until the person answered).
 *
 * `tasks/get`, `tasks/list` and `tasks/cancel` are the SDK's own, over the task store.
 */
export function serveAskPersonAsTask(server: McpServer, options: AskPersonTaskOptions): void {
  const { service, key } = options;
  const listTools = installedHandler(server, "tools/list");
  const callTool = installedHandler(server, "tools/call");

  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const listed = (await listTools(request, extra)) as ListToolsResult;
    return { ...listed, tools: listed.tools.map((tool) => (tool.name === "ask_person" ? { ...tool, execution: { ...tool.execution, taskSupport: "optional" as const } } : tool)) };
  });

  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (!request.params.task) return (await callTool(request, extra)) as never;
    if (request.params.name !== "ask_person") {
      throw new McpError(ErrorCode.MethodNotFound, `${request.params.name} does not run as a task: call it without one. Only ask_person does.`);
    }
    try {
      const task = await extra.taskStore!.createTask(request.params.task);
      return { task };
    } catch (error) {
      throw protocolError(error);
    }
  });

  server.server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const { taskId } = request.params;
    const signal = options.signal ? AbortSignal.any([options.signal, extra.signal]) : extra.signal;
    let ask;
    try {
      ask = await service.wait(key, taskId, options.maxWaitSeconds, signal);
    } catch (error) {
      if (isAppError(error) && error.code === "not_found") throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
      throw protocolError(error);
    }
    if (ask.status === "open") {
      throw new McpError(
        ErrorCode.RequestTimeout,
        `Task ${taskId} is still working: nobody has answered after ${options.maxWaitSeconds} s. Poll tasks/get and call tasks/result once it is completed or cancelled.`,
      );
    }
    return { ...taskResultOf(ask), _meta: { [RELATED_TASK_META_KEY]: { taskId } } };
  });
}
