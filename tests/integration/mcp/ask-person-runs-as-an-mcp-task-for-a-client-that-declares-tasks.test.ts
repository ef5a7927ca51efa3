import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "../asks/ask-fixture";
import { connectClient } from "./mcp-fixture";

const DEPLOY_SCHEMA = { type: "object", properties: { approved: { type: "boolean", title: "Deploy now?" }, window: { type: "string", title: "When" } }, required: ["approved"] };

describe.each(DATABASE_KINDS)("ask_person as an MCP task on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = undefined;
    fixture = undefined;
  });

  /** Calls ask_person as a task (a task-augmented tools/call) and returns the task. */
  async function askAsTask(args: Record<string, unknown>) {
    const created = await client!.request({ method: "tools/call", params: { name: "ask_person", arguments: args } }, CreateTaskResultSchema, { task: { ttl: 60_000 } });
    return created.task;
  }

  /** The question the ask put to `userId`. */
  async function questionOf(userId: string) {
    const [question] = await fixture!.runtime.questionsFor(userId);
    return question!;
  }

  it("tools/list says ask_person takes tasks and the other tools do not", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toEqual({ ask_person: "optional", await_answer: "forbidden", list_people: "forbidden", cancel_ask: "forbidden" });
  });

  it("asked as a task, returns at once a working task whose id is the ask's", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    const started = performance.now();
    const task = await askAsTask({ to: "ada@parley.test", question: "Ship release 4.2 today?" });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(task).toMatchObject({ status: "working", ttl: null, pollInterval: expect.any(Number) });
    expect((await fixture.service.get(fixture.key, task.taskId)).status).toBe("open");
    expect((await questionOf(fixture.ada.id)).title).toBe("Ship release 4.2 today?");
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: "working" });
  });

  it("once the person answers, tasks/get says completed and tasks/result gives the typed answer and who answered", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    const task = await askAsTask({ to: "ada@parley.test", question: "Deploy?", response_schema: DEPLOY_SCHEMA });
    await fixture.runtime.submitAnswer({ questionId: (await questionOf(fixture.ada.id)).id, by: fixture.ada.id, answer: { text: { approved: "yes", window: "after 3pm" } } });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "completed" });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      ask_id: task.taskId,
      status: "answered",
      answer: { approved: true, window: "after 3pm" },
      answered_by: { email: "ada@parley.test", name: "Ada Answerer" },
      answered_at: expect.any(String),
    });
    expect(JSON.stringify(result.content)).toMatch(/Ada Answerer answered/);
  });

  it("the SDK's callToolStream follows the task to the person's answer", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    await client.listTools();
    const seen: string[] = [];
    let answer: unknown;
    for await (const message of client.experimental.tasks.callToolStream({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Which region?" } })) {
      seen.push(message.type === "taskStatus" ? `taskStatus:${message.task.status}` : message.type);
      if (message.type === "taskCreated") {
        const question = await questionOf(fixture.ada.id);
        setTimeout(() => void fixture!.runtime.submitAnswer({ questionId: question.id, by: fixture!.ada.id, answer: { text: { answer: "eu-west" } } }), 300);
      }
      if (message.type === "result") answer = message.result.structuredContent;
      if (message.type === "error") throw message.error;
    }
    expect(seen[0]).toBe("taskCreated");
    expect(seen).toContain("taskStatus:working");
    expect(seen.at(-2)).toBe("taskStatus:completed");
    expect(answer).toMatchObject({ status: "answered", answer: "eu-west", answered_by: { email: "ada@parley.test" } });
  });

  it("asking someone away as a task ends completed at once, with nothing: away", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    const task = await askAsTask({ to: "cy@parley.test", question: "Approve?" });
    expect(task.status).toBe("completed");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ ask_id: task.taskId, status: "nothing", reason: "away" });
  });

  it("tasks/cancel withdraws the ask: the task is cancelled and the ask closed with nothing: cancelled", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    const task = await askAsTask({ to: "ada@parley.test", question: "Approve?" });
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    expect(await fixture.service.get(fixture.key, task.taskId)).toMatchObject({ status: "nothing", reason: "cancelled" });
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toEqual([]);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ status: "nothing", reason: "cancelled" });
  });

  it("tasks/result on an open ask waits for the answer and returns it", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    const task = await askAsTask({ to: "ada@parley.test", question: "Go?" });
    const waiting = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fixture.runtime.submitAnswer({ questionId: (await questionOf(fixture.ada.id)).id, by: fixture.ada.id, answer: { text: { answer: "Go." } } });
    expect((await waiting).structuredContent).toMatchObject({ status: "answered", answer: "Go." });
  });

  it("tasks/result holds an open ask no longer than its bound, then says the task is still working", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true, taskResultWaitSeconds: 1 });
    const task = await askAsTask({ to: "ada@parley.test", question: "Go?" });
    const started = performance.now();
    const error = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.RequestTimeout, message: expect.stringMatching(/still working.*tasks\/get/) });
  });

  it("tasks/list lists this key's asks as tasks, and not another key's", async () => {
    fixture = await createAskFixture(kind);
    const { ask: others } = await fixture.service.create(fixture.otherKey, { to: "ada@parley.test", title: "Whose ask?" });
    client = await connectClient(fixture, { tasks: true });
    const mine = await askAsTask({ to: "ada@parley.test", question: "Mine?" });
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toEqual([mine.taskId]);
    expect(tasks.map((task) => task.taskId)).not.toContain(others.id);
  });

  it("another key's task is unknown to tasks/get, tasks/result and tasks/cancel, and stays open", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.otherKey, { to: "ada@parley.test", title: "Whose ask?" });
    client = await connectClient(fixture, { tasks: true });
    for (const attempt of [
      () => client!.experimental.tasks.getTask(ask.id),
      () => client!.experimental.tasks.getTaskResult(ask.id, CallToolResultSchema),
      () => client!.experimental.tasks.cancelTask(ask.id),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(/^MCP error -32602: [^]*not found/i) });
      expect((error as Error).message.match(/MCP error/g)).toEqual(["MCP error"]);
    }
    expect((await fixture.service.get(fixture.otherKey, ask.id)).status).toBe("open");
  });

  it("a refused ask_person task is an error naming the argument, and nothing is stored", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    for (const [args, path, message] of [
      [{ to: "nobody@parley.test", question: "Ship it?" }, "to", /nobody@parley\.test/],
      [{ question: "Ship it?" }, "to", /Give to: the email of the person/],
    ] as const) {
      const error = await askAsTask(args).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(message), data: { path } });
      // The client's SDK says "MCP error -32602: " in front of what the server sent: the server must not say it too.
      expect((error as Error).message.match(/MCP error/g)).toEqual(["MCP error"]);
    }
    expect((await fixture.service.list(fixture.key, {})).data).toEqual([]);
  });

  it("a client that does not ask for a task still gets ask_person's ticket at once, then await_answer's answer", async () => {
    fixture = await createAskFixture(kind);
    client = await connectClient(fixture, { tasks: true });
    const asked = await client.callTool({ name: "ask_person", arguments: { to: "ada@parley.test", question: "Ship it?" } });
    expect(asked).not.toHaveProperty("task");
    const { ask_id } = asked.structuredContent as { ask_id: string };
    expect(asked.structuredContent).toMatchObject({ status: "open", url: expect.stringMatching(/\/questions\//) });
    await fixture.runtime.submitAnswer({ questionId: (await questionOf(fixture.ada.id)).id, by: fixture.ada.id, answer: { text: { answer: "Yes." } } });
    const awaited = await client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 0 } });
    expect(awaited.structuredContent).toMatchObject({ status: "answered", answer: "Yes." });
  });
});
