import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, BASE_URL, createAskFixture, DEPLOY_SCHEMA } from "./ask-fixture";

describe.each(DATABASE_KINDS)("an ask made over the API on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("is open at once, and is in the person's inbox as a question asking each property of the schema", async () => {
    fixture = await createAskFixture(kind);
    const { created, ask } = await fixture.service.create(fixture.key, {
      to: "ada@parley.test",
      title: "Deploy billing 2.4 to production?",
      body: "The rollback was tested yesterday.",
      context: { service: "billing", canary_errors: 0, rollback_tested: true },
      response_schema: DEPLOY_SCHEMA,
      due_in_seconds: 3600,
      metadata: { run: "ci-8812" },
    });
    expect(created).toBe(true);
    expect(ask).toMatchObject({
      status: "open",
      title: "Deploy billing 2.4 to production?",
      to: "ada@parley.test",
      due_at: "2026-12-04T10:00:00.000Z",
      created_at: "2026-12-04T09:00:00.000Z",
      metadata: { run: "ci-8812" },
      answer: null,
      answered_by: null,
      reason: null,
    });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    expect(ask.url).toBe(`${BASE_URL}/questions/${question!.id}`);
    expect(question!.title).toBe("Deploy billing 2.4 to production?");
    expect(question!.slot).toMatchObject({ assigneeId: fixture.ada.id, dueAt: new Date("2026-12-04T10:00:00.000Z") });
    expect(question!.spec.fields.map((field) => [field.path, field.question, field.kind])).toEqual([
      ["decision", "Deploy now?", "enum"],
      ["window_hours", "How many hours may it take?", "integer"],
      ["notify", "Tell the on-call team?", "boolean"],
    ]);
    expect(question!.spec.fields[0]!.options?.map((option) => option.label)).toEqual(["Approve", "Reject"]);
  });

  it("to several people is a question any one of them may answer", async () => {
    fixture = await createAskFixture(kind);
    await fixture.service.create(fixture.key, { to: ["ada@parley.test", "BO@parley.test "], title: "Who can review the contract?" });
    const [forAda] = await fixture.runtime.questionsFor(fixture.ada.id);
    const [forBo] = await fixture.runtime.questionsFor(fixture.bo.id);
    expect(forAda!.id).toBe(forBo!.id);
    expect(forAda!.slot).toMatchObject({ assigneeId: null, candidateIds: [fixture.ada.id, fixture.bo.id] });
  });
});
