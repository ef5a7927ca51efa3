import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Db } from "@/db/client";
import { listAskable } from "@/lib/people";
import type { ApiKey } from "@/db/schema";
import type { AskService } from "@/lib/asks/asks";
import { NOTHING_REASONS } from "@/db/schema";
import { isAppError } from "@/lib/errors";
import { AskPersonArguments } from "./ask-arguments";
import { askPerson, AwaitAnswerOutput, awaited, awaitedText, toolResult } from "./ask-results";
import { log } from "@/lib/log";
import { serveAskPersonAsTask } from "./ask-person-task";
import { createAskTaskStore } from "./ask-task-store";
import { listToolsInJsonSchema2020 } from "./json-schema-2020-12";
import { answerErrorsWithoutCodePrefix } from "./protocol-error";

/** How long `await_answer` waits when not told. */
export const DEFAULT_WAIT_SECONDS = 25;
/** The longest `await_answer` waits: under every common MCP client's request timeout (60 s and up). */
export const MAX_WAIT_SECONDS = 50;
/** How often a waiting `await_answer` tells a client that asked for progress that it is still waiting. */
export const PROGRESS_INTERVAL_MS = 5_000;

/** What the MCP server is made of: the ask service, the database (for people) and the key the request came with. */
export interface ParleyMcpServerOptions {
  service: AskService;
  db: Db;
  key: ApiKey;
  /** Aborted when the HTTP request goes away: a waiting `await_answer` stops. */
  signal?: AbortSignal;
  /** How often a waiting `await_answer` sends progress; {@link PROGRESS_INTERVAL_MS} unless a test needs it sooner. */
  progressIntervalMs?: number;
  /** The poll interval an `ask_person` task asks for (`TASK_POLL_INTERVAL_MS` unless a test needs it sooner). */
  taskPollIntervalMs?: number;
  /** The longest `tasks/result` waits on an open ask: {@link MAX_WAIT_SECONDS} unless a test needs it sooner. */
  taskResultWaitSeconds?: number;
}

const ASK_PERSON_DESCRIPTION = `Ask a person in Parley a question and get back an ask_id AT ONCE — this never waits for the person.
Then call await_answer with that ask_id, again and again, until its status is "answered" (use answer) or "nothing" (nobody will answer: see reason, e.g. "away", "expired", "cancelled"; decide without them — never invent their answer).
If the status here is already "nothing" (the person is away), do not call await_answer: ask someone else or go on without an answer.
Use list_people to find who you may ask. Give the full context in question; the person cannot ask you back.`;

const AWAIT_ANSWER_DESCRIPTION = `Wait for the answer to an ask made with ask_person, for up to wait_seconds (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}).
Returns status "answered" with answer, answered_by and answered_at; or "nothing" with reason (nobody will answer); or "open" with still_waiting_seconds when the person has not answered yet.
On "open", call await_answer again with the same ask_id (a person may take minutes or hours; keep calling while you can wait). Never treat "open" as an answer.`;

const AskPersonOutput = z.object({
  ask_id: z.string().describe("Pass to await_answer and cancel_ask."),
  status: z.enum(["open", "answered", "nothing"]).describe('"open": now call await_answer. "nothing": nobody will answer (see reason).'),
  url: z.string().describe("The question's page in Parley."),
  reason: z.enum(NOTHING_REASONS).nullable().describe('Why nobody will answer, when status is "nothing".'),
  // Run as an MCP task, ask_person's result (tasks/result) is the finished ask, as await_answer gives it.
  answer: AwaitAnswerOutput.shape.answer,
  answered_by: AwaitAnswerOutput.shape.answered_by,
  answered_at: AwaitAnswerOutput.shape.answered_at,
  declined_by: AwaitAnswerOutput.shape.declined_by,
  note: AwaitAnswerOutput.shape.note,
});

const PersonOutput = z.object({
  name: z.string(),
  email: z.string(),
  groups: z.array(z.string()).describe("The teams they are in: ask one with to: { group }."),
  away: z.boolean().describe("An away person gets nothing asked (unless they named a delegate): ask_person returns status nothing, reason away."),
});
const GroupOutput = z.object({
  name: z.string().describe('Pass as to: { "group": name }.'),
  members: z.int(),
  present: z.int().describe("Members not away: when 0, an ask to the group gets nothing at once."),
});
const ListPeopleOutput = z.object({ people: z.array(PersonOutput), groups: z.array(GroupOutput) });

const CancelAskOutput = z.object({ ask_id: z.string(), status: z.enum(["open", "answered", "nothing"]), reason: z.enum(NOTHING_REASONS).nullable() });

/**
 * A refusal as an MCP tool error in the caller's terms — its code, the argument at fault and the
 * message, as text (`unknown_person (to): …`); anything unexpected is logged, not shown. No
 * `structuredContent`: a client that listed the tools validates any it gets against the tool's
 * output schema, even on an error (the official TypeScript SDK's `callTool` does, and throws away
 * the refusal when it does not match), and a refusal is not the tool's output.
 */
function toolError(error: unknown, pathOf: (path: string | undefined) => string | undefined = (path) => path): CallToolResult {
  if (isAppError(error)) {
    const path = pathOf(error.path);
    return { isError: true, content: [{ type: "text", text: `${error.code}${path ? ` (${path})` : ""}: ${error.message}` }] };
  }
  log.error({ err: error }, "Parley MCP: a tool call failed.");
  return { isError: true, content: [{ type: "text", text: "internal: Something went wrong in Parley; try again." }] };
}

/**
 * Parley's MCP server for one request and one API key: `ask_person`, `await_answer`, `list_people`,
 * `cancel_ask` over the one ask service. No call waits on a person longer than `await_answer`'s
 * bound, so no client's request timeout is ever what ends an ask.
 */
export function createParleyMcpServer(options: ParleyMcpServerOptions): McpServer {
  const { service, db, key } = options;
  const taskStore = createAskTaskStore({ service, key, ...(options.taskPollIntervalMs === undefined ? {} : { pollIntervalMs: options.taskPollIntervalMs }) });
  const server = new McpServer(
    { name: "parley", version: "0.1.0" },
    // Tasks: a client that runs tools as tasks may call ask_person as one (tasks/get, tasks/result, tasks/list, tasks/cancel).
    { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore },
  );

  const tools: Record<string, RegisteredTool> = Object.create(null);

  tools.ask_person = server.registerTool(
    "ask_person",
    { title: "Ask a person", description: ASK_PERSON_DESCRIPTION, inputSchema: AskPersonArguments, outputSchema: AskPersonOutput, annotations: { readOnlyHint: false, openWorldHint: true } },
    async (args) => {
      try {
        const ask = await askPerson(service, key, args);
        const structured = { ask_id: ask.id, status: ask.status, url: ask.url, reason: ask.reason };
        const text =
          ask.status === "nothing"
            ? `Nobody will answer (${ask.reason}): do not call await_answer; ask someone else or decide without them.`
            : ask.status === "answered"
              ? `Already answered (ask ${ask.id}): call await_answer to read the answer.`
              : `Asked (ask_id ${ask.id}). Now call await_answer with this ask_id until it is answered or nothing.`;
        return toolResult(structured, text);
      } catch (error) {
        return toolError(error);
      }
    },
  );

  tools.await_answer = server.registerTool(
    "await_answer",
    {
      title: "Wait for a person's answer",
      description: AWAIT_ANSWER_DESCRIPTION,
      inputSchema: z.object({
        ask_id: z.string().min(1).max(100).describe("The ask_id ask_person returned."),
        wait_seconds: z.int().min(0).max(MAX_WAIT_SECONDS).optional().describe(`How long to wait for the answer in this call (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}).`),
      }),
      outputSchema: AwaitAnswerOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      const seconds = args.wait_seconds ?? DEFAULT_WAIT_SECONDS;
      const progressToken = extra._meta?.progressToken;
      const started = performance.now();
      // A client that gave a progress token hears every few seconds that the wait goes on, so one that resets
      // its timeout on progress never gives up while a person may still answer.
      const ticker =
        progressToken === undefined
          ? undefined
          : setInterval(() => {
              // Tenths of a second, so progress always increases as the protocol asks, however short the interval.
              const waited = Math.round((performance.now() - started) / 100) / 10;
              extra
                .sendNotification({ method: "notifications/progress", params: { progressToken, progress: waited, total: seconds, message: `Waiting for the person (${Math.floor(waited)} of ${seconds} s).` } })
                .catch(() => {});
            }, options.progressIntervalMs ?? PROGRESS_INTERVAL_MS);
      try {
        const signal = options.signal ? AbortSignal.any([options.signal, extra.signal]) : extra.signal;
        const view = awaited(await service.wait(key, args.ask_id, seconds, signal));
        return toolResult(view, awaitedText(view));
      } catch (error) {
        return toolError(error, (path) => path ?? "ask_id");
      } finally {
        if (ticker) clearInterval(ticker);
      }
    },
  );

  tools.list_people = server.registerTool(
    "list_people",
    {
      title: "List who can be asked",
      description:
        "The people ask_person can ask — name, email (pass it as `to`), their groups and whether they are away (an away person gets nothing asked) — and the groups (pass { group: name } as `to` to ask a team). Filter with query (part of a name, email or group).",
      inputSchema: z.object({ query: z.string().max(200).optional().describe("Part of a name or email; all people when left out.") }),
      outputSchema: ListPeopleOutput,
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      try {
        const { people, groups } = await listAskable(db, args.query ?? "");
        const lines = [
          ...people.map((person) => `${person.name} <${person.email}>${person.groups.length > 0 ? ` [${person.groups.join(", ")}]` : ""}${person.away ? " (away)" : ""}`),
          ...groups.map((group) => `group ${group.name}: ${group.members} member${group.members === 1 ? "" : "s"}, ${group.present} not away`),
        ];
        return toolResult({ people, groups }, lines.length === 0 ? "Nobody matches." : lines.join("\n"));
      } catch (error) {
        return toolError(error);
      }
    },
  );

  tools.cancel_ask = server.registerTool(
    "cancel_ask",
    {
      title: "Cancel an ask",
      description: "Withdraw an ask that is still open (it closes with nothing, reason cancelled). An answered ask cannot be cancelled: read it with await_answer.",
      inputSchema: z.object({ ask_id: z.string().min(1).max(100).describe("The ask_id ask_person returned.") }),
      outputSchema: CancelAskOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    async (args) => {
      try {
        const ask = await service.cancel(key, args.ask_id);
        return toolResult({ ask_id: ask.id, status: ask.status, reason: ask.reason }, `Cancelled: ask ${ask.id} closed with nothing (${ask.reason}).`);
      } catch (error) {
        return toolError(error, (path) => path ?? (isAppError(error) && error.code === "not_found" ? "ask_id" : undefined));
      }
    },
  );

  serveAskPersonAsTask(server, {
    service,
    key,
    maxWaitSeconds: Math.min(options.taskResultWaitSeconds ?? MAX_WAIT_SECONDS, MAX_WAIT_SECONDS),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  listToolsInJsonSchema2020(server, tools);
  answerErrorsWithoutCodePrefix(server);
  return server;
}
