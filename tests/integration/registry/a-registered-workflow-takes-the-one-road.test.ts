import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { listOpenSlots } from "@/db/queries/sla";
import type { User } from "@/db/schema";
import { deployApproval } from "@/examples/deploy-approval";
import { loadInbox } from "@/lib/inbox";
import { buildQuestionNotice } from "@/lib/notifications/outbox";
import { validateFormAnswer } from "@/lib/questions";
import { createRegistry, type Registry } from "@/lib/registry";
import { loadRunPage, loadRuns, startableWorkflows, startFormOf } from "@/lib/runs";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

/** What an operator types into the deployment approval's start form (a browser posts strings). */
function startForm(approver: User, overrides: Record<string, string> = {}) {
  return { service: "billing-api", version: "2.14.0", environment: "production", change: "Invoices get a tax line per region.", approverId: approver.id, ...overrides };
}

describe.each(DATABASE_KINDS)("a workflow registered by one line (the deployment approval, %s)", (kind) => {
  let database: TestDatabase;
  let registry: Registry;
  let runtime: Runtime;
  let lee: User;
  let omar: User;
  afterEach(async () => database?.close());

  async function setUp() {
    database = await createTestDatabase(kind);
    [lee, omar] = (await insertUsersIfAbsent(database.db, [
      { email: "lee@parley.test", name: "Lee Okafor", roles: ["assignee", "operator"] },
      { email: "omar@parley.test", name: "Omar Operator", roles: ["operator"] },
    ])) as [User, User];
    // The registry as parley.config.ts would build it, with this one app in it.
    registry = createRegistry({ apps: [deployApproval] });
    runtime = createRuntime({ db: database.db, workflows: registry.workflows, resolveModel: (agent) => registry.scriptedModelFor(agent.name)! });
  }

  async function start(form: Record<string, string>) {
    const entry = registry.entry("DeployApproval")!;
    const { schema, spec } = await startFormOf(database.db, entry);
    const verdict = await validateFormAnswer(schema, form, spec);
    if (!verdict.ok) return { refused: verdict.fieldErrors };
    const { taskId } = await entry.start!.run({ db: database.db, runtime, by: omar.id, now: new Date() }, verdict.value);
    await runtime.drain();
    return { taskId };
  }

  it("is offered to operators with a start form generated from its start schema", async () => {
    await setUp();
    expect(startableWorkflows(registry, omar).map((entry) => entry.label)).toEqual(["Deployment approval"]);
    expect(startableWorkflows(registry, { roles: ["assignee"] })).toEqual([]);
    const { spec } = await startFormOf(database.db, registry.entry("DeployApproval")!);
    expect(spec.fields.map((field) => [field.path, field.kind])).toEqual([
      ["service", "text"],
      ["version", "text"],
      ["environment", "enum"],
      ["change", "text"],
      ["rollbackTested", "boolean"],
      ["approverId", "enum"],
    ]);
    expect(spec.fields.find((field) => field.path === "approverId")?.options?.map((option) => option.label)).toEqual(["Lee Okafor"]);
  });

  it("refuses a start form on the field, in the schema's words, and starts nothing", async () => {
    await setUp();
    const result = await start(startForm(lee, { version: "2.14" }));
    expect(result).toEqual({ refused: { version: ["Write the version as major.minor.patch, like 2.14.0."] } });
    expect((await loadRuns(database.db, registry, {})).rows).toEqual([]);
  });

  it("asks its approver, who finds the question in the inbox, described by the workflow", async () => {
    await setUp();
    const { taskId } = await start(startForm(lee));
    const inbox = await loadInbox(database.db, lee.id, "assigned", new Date(), { registry });
    expect(inbox.rows).toHaveLength(1);
    expect(inbox.rows[0]).toMatchObject({
      asker: { kind: "agent", name: "ReleaseChecker" },
      subject: { title: "Deploy billing-api 2.14.0 to production", summary: "Invoices get a tax line per region." },
      headline: expect.stringMatching(/rollback of billing-api 2\.14\.0 was not tested/),
    });
    expect((await runtime.questionsFor(lee.id))[0]?.taskId).toBe(taskId);
  });

  it("has a run page with its subject and context, a runs list row, an SLA wait and a notice", async () => {
    await setUp();
    const { taskId } = await start(startForm(lee));
    const page = await loadRunPage(database.db, registry, taskId!);
    expect(page).toMatchObject({
      workflowLabel: "Deployment approval",
      registered: true,
      startedByName: "Omar Operator",
      run: { workflow: "DeployApproval", state: "Waiting", status: "waiting", waitingOn: "Lee Okafor" },
      subject: { title: "Deploy billing-api 2.14.0 to production" },
    });
    expect(page?.context?.facts).toContainEqual({ label: "Environment", value: "production" });
    expect((await loadRuns(database.db, registry, { workflow: "DeployApproval", state: "waiting" })).rows.map((row) => row.taskId)).toEqual([taskId]);
    expect((await listOpenSlots(database.db, { workflow: "DeployApproval" }, new Date())).map((slot) => slot.taskId)).toEqual([taskId]);
    const [question] = await runtime.questionsFor(lee.id);
    const notice = await buildQuestionNotice(
      database.db,
      question!.id,
      { baseUrl: "https://parley.example", describeSubject: async (db, id) => (await registry.describeTasks(db, [id])).get(id)?.title },
      { kind: "question-opened" },
    );
    expect(notice).toMatchObject({ subject: "Deploy billing-api 2.14.0 to production", askedBy: "ReleaseChecker", recipients: [expect.objectContaining({ email: "lee@parley.test" })] });
  });

  it("refuses a deployment window that has passed, on the window, in the schema's words, and keeps the question open", async () => {
    await setUp();
    await start(startForm(lee));
    const [question] = await runtime.questionsFor(lee.id);
    await runtime.submitAnswer({ questionId: question!.id, by: lee.id, answer: { text: { answer: "Redeploy 2.13.4 from the release pipeline; it takes ten minutes and Lee runs it." } } });
    await runtime.drain();
    const [approval] = await runtime.questionsFor(lee.id);
    expect(approval).toMatchObject({ title: "Approve billing-api 2.14.0 to production?" });
    const refused = await runtime.submitAnswer({ questionId: approval!.id, by: lee.id, answer: { text: { decision: "approve", window: "2024-03-01", notify: "", notes: "-" } } });
    expect(refused).toMatchObject({ status: "refused", fieldErrors: { window: ["That day has passed: pick today or a later day."] } });
    expect((await runtime.questionsFor(lee.id)).map((open) => open.id)).toEqual([approval!.id]);
  });

  it("asks again while the rollback plan is thin, then puts the approval questionnaire and ends where the verdict says", async () => {
    await setUp();
    const { taskId } = await start(startForm(lee));
    const answer = async (text: string) => {
      const [question] = await runtime.questionsFor(lee.id);
      expect(await runtime.submitAnswer({ questionId: question!.id, by: lee.id, answer: { text: { answer: text } } })).toMatchObject({ status: "answered" });
      await runtime.drain();
    };
    await answer("revert it");
    const [again] = await runtime.questionsFor(lee.id);
    expect(again?.spec.fields[0]?.question).toMatch(/"revert it" is too thin to go on/);
    await answer("Redeploy 2.13.4 from the release pipeline; it takes ten minutes and Lee runs it.");
    const [approval] = await runtime.questionsFor(lee.id);
    expect(approval).toMatchObject({ title: "Approve billing-api 2.14.0 to production?", workflow: "DeployApproval" });
    const verdict = await runtime.submitAnswer({ questionId: approval!.id, by: lee.id, answer: { text: { decision: "approve", window: inAWeek(), notify: "billing, support", notes: "-" } } });
    expect(verdict).toMatchObject({ status: "answered" });
    await runtime.drain();
    expect((await loadRunPage(database.db, registry, taskId!))?.run).toMatchObject({ state: "Approved", status: "completed", runState: "completed" });
  });
});

/** A day a week from now (YYYY-MM-DD): a window that has not passed whenever the test runs. */
function inAWeek(): string {
  return new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
}
