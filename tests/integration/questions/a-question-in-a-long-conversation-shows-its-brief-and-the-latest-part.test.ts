import { afterEach, describe, expect, it } from "vitest";
import { expenseReview } from "@/examples/expense-review";
import { CONVERSATION_WINDOW, loadQuestionRun } from "@/lib/question-view";
import { createRegistry } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";
import { earlierAnswer, giveLongHistory } from "../runs/long-run";

const EARLIER_ASKS = 40;

describe.each(DATABASE_KINDS)("the conversation beside a question of a long run (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  /** A review whose Auditor asked Sam 40 times before the question still open: 82 messages. */
  async function longConversation() {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const history = await giveLongHistory(fixture.database.db, { taskId: task.id, asks: EARLIER_ASKS, by: fixture.sam.id, from: new Date("2026-11-01T09:00:00.000Z") });
    const [open] = await fixture.runtime.questionsFor(fixture.sam.id);
    return { taskId: task.id, open: open!, ...history, registry: createRegistry({ apps: [expenseReview] }) };
  }

  it("while it is open: the brief, how many messages are left out, then the latest up to the question", async () => {
    const { open, registry } = await longConversation();
    const { conversation, gap } = await loadQuestionRun(fixture!.database.db, registry, open);
    const messages = 1 + 2 * EARLIER_ASKS + 1;

    expect(conversation[0]).toMatchObject({ kind: "instruction", text: expect.stringContaining("Dinner, Lisbon") });
    expect(conversation.at(-1)).toMatchObject({ kind: "question", text: expect.stringMatching(/^What was the 482\.50 EUR charge at Cervejaria Ramiro/) });
    expect(conversation.length).toBeLessThanOrEqual(1 + CONVERSATION_WINDOW);
    // The window does not begin with an answer to a question it leaves out.
    expect(conversation[1]?.kind).toBe("question");
    expect(gap).toEqual({ beforeLine: 1, messages: messages - conversation.length });
  });

  it("once answered, long ago: the brief, then the part that ends with its answer", async () => {
    const { askIds, conversationId, taskId, registry } = await longConversation();
    const { conversation, gap } = await loadQuestionRun(fixture!.database.db, registry, { id: askIds[29]!, taskId, conversationId });

    expect(conversation[0]?.kind).toBe("instruction");
    expect(conversation.at(-1)).toEqual({ kind: "answer", text: earlierAnswer(30), toolCallId: "earlier-call-30" });
    expect(conversation.length).toBe(1 + CONVERSATION_WINDOW);
    // The brief is message 1, the answer message 61: the 30 before the answer are shown, 2 to 31 left out.
    expect(gap).toEqual({ beforeLine: 1, messages: 30 });
  });
});
