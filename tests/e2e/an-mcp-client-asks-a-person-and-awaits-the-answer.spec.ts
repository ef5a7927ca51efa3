import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect, people, signedInPage, test } from "./fixtures";
import { uniqueTitle } from "./pages/runs-page";
import { makeAgentKey } from "./support/agent-key";
import { revokeAgentKey } from "./support/agent-keys";

/**
 * The official MCP client (a client nobody here wrote), over Streamable HTTP to the running server,
 * with an agent key, having listed the tools as every real client does first — so it validates each
 * result against its tool's output schema, as theirs do.
 */
async function connect(baseURL: string, secret: string, options: { tasks?: boolean } = {}): Promise<Client> {
  const client = new Client({ name: "parley-e2e", version: "1.0.0" }, options.tasks ? { capabilities: { tasks: { list: {}, cancel: {} } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  await client.listTools();
  return client;
}

test("an MCP client asks a person with ask_person, the person answers in the browser, and await_answer returns the answer and who gave it", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const key = await makeAgentKey(browser, `MCP agent ${Date.now()}`);
  const client = await connect(baseURL!, key.secret);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask_person", "await_answer", "cancel_ask", "list_people"]);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe("object");

    const found = await client.callTool({ name: "list_people", arguments: { query: people.assignee.email } });
    expect(found.structuredContent).toEqual({ people: [{ name: people.assignee.name, email: people.assignee.email, groups: ["finance"], away: false }], groups: [] });

    const title = uniqueTitle("Roll out the new billing page?");
    const started = Date.now();
    const asked = await client.callTool({ name: "ask_person", arguments: { to: people.assignee.email, question: title } });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(asked.isError).toBeFalsy();
    const { ask_id, status, url } = asked.structuredContent as { ask_id: string; status: string; url: string };
    expect(status).toBe("open");

    // Nobody has answered yet: the call comes back open after its wait, telling the model to call again.
    const still = await client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 2 } });
    expect(still.structuredContent).toMatchObject({ status: "open", still_waiting_seconds: expect.any(Number) });

    const progress: number[] = [];
    const waiting = client.callTool({ name: "await_answer", arguments: { ask_id, wait_seconds: 50 } }, undefined, { onprogress: (each) => progress.push(each.progress), resetTimeoutOnProgress: true });

    const page = await signedInPage(browser, people.assignee);
    await page.goto("/inbox?view=assigned");
    await expect(page.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible();
    await page.goto(new URL(url).pathname);
    await expect(page.getByText(`${key.name} asks over the API`)).toBeVisible();
    // Long enough for the waiting call to send progress at least once.
    await page.waitForTimeout(5_500);
    await page.getByRole("textbox", { name: "Your answer" }).fill("Yes, after the 3pm deploy.");
    await page.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByText(/You answered this|answered/i).first()).toBeVisible();

    const answered = await waiting;
    expect(answered.structuredContent).toMatchObject({ status: "answered", answer: "Yes, after the 3pm deploy.", answered_by: { email: people.assignee.email, name: people.assignee.name } });
    expect(progress.length).toBeGreaterThan(0);
    await page.context().close();
  } finally {
    await client.close();
  }
});

test("over MCP, someone away is nothing at once, an unknown person is a tool error, and no key, an unknown key or a revoked one is a 401", async ({ browser, baseURL, request }) => {
  test.setTimeout(90_000);
  const unauthenticated = await request.post("/api/mcp", {
    headers: { accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } },
  });
  expect(unauthenticated.status()).toBe(401);
  // Says an API key is wanted, so a client such as MCP Inspector asks for one rather than start an OAuth flow.
  expect(unauthenticated.headers()["www-authenticate"]).toMatch(/^Bearer realm="Parley"/);
  expect(await unauthenticated.json()).toMatchObject({ error: { code: "unauthorized" } });
  await expect(connect(baseURL!, "pk_not_a_key")).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/unknown or was revoked/) });

  const key = await makeAgentKey(browser, `MCP agent ${Date.now()}`);
  const client = await connect(baseURL!, key.secret);
  const person = people.otherAssignee;
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin");
  const row = admin.getByTestId(`person-${person.email}`);
  await row.getByRole("button", { name: `Mark away: ${person.name}` }).click();
  await expect(row).toContainText("Away");
  try {
    const started = Date.now();
    const asked = await client.callTool({ name: "ask_person", arguments: { to: person.email, question: uniqueTitle("Approve the invoice?") } });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(asked.structuredContent).toMatchObject({ status: "nothing", reason: "away" });

    const unknown = await client.callTool({ name: "ask_person", arguments: { to: "nobody@parley.test", question: "Approve the invoice?" } });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([{ type: "text", text: expect.stringMatching(/^unknown_person \(to\): .*nobody@parley\.test/) }]);

    // Every request is authenticated: once revoked, the next call of a client already connected is refused.
    await revokeAgentKey(browser, key);
    await expect(client.callTool({ name: "list_people", arguments: {} })).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/revoked/) });
  } finally {
    await row.getByRole("button", { name: `Mark back: ${person.name}` }).click();
    await expect(row).not.toContainText("Away");
    await admin.context().close();
    await client.close();
  }
});

test("an MCP client that runs tools as tasks asks a person as a task, and the task completes with the answer given in the browser", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const key = await makeAgentKey(browser, `MCP task agent ${Date.now()}`);
  const client = await connect(baseURL!, key.secret, { tasks: true });
  try {
    const title = uniqueTitle("Merge the release branch?");
    const started = Date.now();
    const { task } = await client.request({ method: "tools/call", params: { name: "ask_person", arguments: { to: people.assignee.email, question: title } } }, CreateTaskResultSchema, { task: {} });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(task.status).toBe("working");
    // Every request is a fresh server: the task is read back from the database.
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working" });

    const page = await signedInPage(browser, people.assignee);
    await page.goto("/inbox?view=assigned");
    await page.getByTestId("inbox-row").filter({ hasText: title }).getByRole("link").first().click();
    await page.getByRole("textbox", { name: "Your answer" }).fill("Merge it.");
    await page.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByText(/You answered this|answered/i).first()).toBeVisible();

    await expect.poll(async () => (await client.experimental.tasks.getTask(task.taskId)).status).toBe("completed");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ ask_id: task.taskId, status: "answered", answer: "Merge it.", answered_by: { email: people.assignee.email } });
    await page.context().close();
  } finally {
    await client.close();
  }
});
