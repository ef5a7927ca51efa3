import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDecision } from "@/examples/expense-review/claim-brief";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { type FlakyModelProvider, type ProviderBehaviour, startFlakyModelProvider } from "./support/flaky-model-provider";
import { callAction, HttpClient, serverActionIds, startedTaskId } from "./support/http-client";
import { adminPostgresUrl } from "./support/prerequisites";
import { countRows } from "./support/review-invariants";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";

const PORT = 3157;

/** The run page's text, tags stripped, for asserting what an operator reads. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&rsquo;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** What the run page's header says of where the run stands, as read (React's text separators dropped). */
function runStatusOf(html: string): string {
  const status = /<p[^>]*data-testid="run-status"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1];
  if (status === undefined) throw new Error("the run page has no run status");
  return textOf(status.replace(/<!--[\s\S]*?-->/g, "")).trim();
}

describe("the model failing or timing out mid-run, on a real provider over HTTP", () => {
  let database: FaultDatabase;
  let provider: FlakyModelProvider;
  let server: ServerProcess;
  let operator: HttpClient;

  beforeAll(async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "model");
    provider = await startFlakyModelProvider({ kind: "error", status: 500, message: "upstream overloaded" });
    server = await startServer({
      port: PORT,
      databaseUrl: database.url,
      authSecret: randomBytes(33).toString("base64"),
      env: { PARLEY_MODEL_BASE_URL: provider.baseUrl, PARLEY_MODEL: "test-model", PARLEY_MODEL_API_KEY: "test-key", PARLEY_JOB_LEASE_MS: "2000" },
    });
    operator = new HttpClient(server.baseUrl);
    await operator.signIn("omar@parley.test", "omar-operator-demo");
  });

  afterAll(async () => {
    await server?.kill9();
    await provider?.close();
    await database?.drop();
  });

  async function statusOf(taskId: string): Promise<string | undefined> {
    const [row] = await database.sql<{ status: string }[]>`select status from review_tasks where id = ${taskId}`;
    return row?.status;
  }

  /** Starts a review the way an operator does, over HTTP, with the provider behaving as `failure`. */
  async function reviewFailingWith(failure: ProviderBehaviour): Promise<string> {
    provider.behaviour = failure;
    const samId = database.people["sam@parley.test"]!;
    const started = await callAction(operator, {
      actionId: serverActionIds().get("app/(app)/runs/actions.ts#startRunAction")!,
      path: "/runs",
      args: [{ json: null }, { form: { workflow: "ReviewClaim", startToken: randomUUID(), title: `Taxi ${failure.kind}`, amount: "34.00", currency: "EUR", merchant: "Lisbon Taxis", incurredOn: "2026-11-04", description: "Taxi to the client.", assigneeId: samId } }],
    });
    const taskId = startedTaskId(started);
    if (!taskId) throw new Error(`starting the review failed: ${started.status} ${started.body.slice(0, 500)}`);
    await until(`the ${failure.kind} run fails`, async () => (await statusOf(taskId)) === "retryable", { timeoutMs: 60_000 });
    return taskId;
  }

  // What the page says to check, where the cause says what went wrong (a provider's own error message speaks for itself).
  for (const [name, failure, cause, advice] of [
    ["an error from the provider", { kind: "error", status: 500, message: "upstream overloaded" }, /upstream overloaded/, null],
    ["the provider timing out (its gateway answers 504)", { kind: "gateway-timeout", afterMs: 1_500 }, /timed out/, /did not answer in time: check that it is not overloaded, and PARLEY_MODEL_BASE_URL \(http:\/\/127\.0\.0\.1:\d+\//],
    ["the connection dropped mid-call", { kind: "drop", afterMs: 1_000 }, /other side closed/, /Parley could not reach the model at http:\/\/127\.0\.0\.1:\d+\/.*: check PARLEY_MODEL_BASE_URL/],
  ] as const) {
    it(`${name}: the turn fails visibly, the run can be retried, and the retry runs it to completion`, async () => {
      const taskId = await reviewFailingWith(failure);

      // The operator sees the failure, its cause, and the way out.
      const failedPage = await operator.request(`/tasks/${taskId}`);
      expect(failedPage.status).toBe(200);
      const failedText = textOf(failedPage.body);
      expect(runStatusOf(failedPage.body)).toBe("Failed (can be retried) in state Running");
      expect(failedText).toMatch(/Auditor model turn failed/);
      // The provider's own cause, as recorded, is what the page shows.
      const [turnFailed] = await database.sql<{ cause: string }[]>`select data->>'cause' as cause from run_events where task_id = ${taskId} and kind = 'turn-failed'`;
      expect(turnFailed?.cause).toMatch(cause);
      expect(failedText).toContain(textOf(turnFailed!.cause).trim().slice(0, 80));
      expect(failedText).toMatch(/It was a model error, so can be retried where it stopped\./);
      if (advice) expect(failedText).toMatch(advice);
      else expect(failedText).not.toMatch(/could not reach the model|did not answer in time/);
      expect(failedText).toMatch(/Retry the run/);
      expect(await countRows(database.sql, `select 1 from jobs j join workflow_instances wi on wi.id = j.workflow_instance_id where wi.task_id = '${taskId}' and j.status = 'failed'`)).toBe(1);

      // The model is back; the operator retries, over HTTP, as the button does.
      provider.behaviour = { kind: "reply", text: formatDecision({ decision: "rejected", reason: "A taxi to a client is fine, but this one was personal." }) };
      const before = provider.requests();
      const retried = await callAction(operator, {
        actionId: serverActionIds().get("app/(app)/tasks/[id]/actions.ts#retryRunAction")!,
        path: `/tasks/${taskId}`,
        args: [{ json: null }, { form: { taskId } }],
      });
      expect(retried.result).toMatchObject({ ok: true, data: { requeued: 1 } });
      await until("the retried run completes", async () => (await statusOf(taskId)) === "completed", { timeoutMs: 60_000 });

      const donePageHtml = (await operator.request(`/tasks/${taskId}`)).body;
      const donePage = textOf(donePageHtml);
      expect(runStatusOf(donePageHtml)).toBe("Completed");
      expect(donePage).toMatch(/Auditor model turn failed/);
      expect(donePage).not.toMatch(/Retry the run/);
      // The retry ran the same job again, once, with one more model call; the run ended once.
      expect(provider.requests() - before).toBe(1);
      const where = `wi.task_id = '${taskId}'`;
      expect(await countRows(database.sql, `select 1 from jobs j join workflow_instances wi on wi.id = j.workflow_instance_id where ${where} and (j.status <> 'done')`)).toBe(0);
      expect(await countRows(database.sql, `select 1 from run_events e join workflow_instances wi on wi.task_id = e.task_id where ${where} and e.kind = 'turn-failed'`)).toBe(1);
      expect(await countRows(database.sql, `select 1 from run_events e join workflow_instances wi on wi.task_id = e.task_id where ${where} and e.kind = 'completed'`)).toBe(1);
      expect(await countRows(database.sql, `select 1 from conversation_messages m join conversations c on c.id = m.conversation_id where c.task_id = '${taskId}' and m.role = 'assistant'`)).toBe(1);

      // A second retry finds nothing to do, and says so.
      const again = await callAction(operator, {
        actionId: serverActionIds().get("app/(app)/tasks/[id]/actions.ts#retryRunAction")!,
        path: `/tasks/${taskId}`,
        args: [{ json: null }, { form: { taskId } }],
      });
      expect(again.result).toMatchObject({ ok: false, error: { code: "conflict" } });
    });
  }
});
