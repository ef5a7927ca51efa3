import { afterEach, describe, expect, it } from "vitest";
import { createRuntime, turn } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { loopAgent, newTask, toolResults } from "./agents";

describe.each(DATABASE_KINDS)("several asks in one step (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  it("are each a question, answerable in any order, and the run resumes once, after the last", async () => {
    database = await createTestDatabase(kind);
    const { agent, model } = loopAgent((prompt) =>
      toolResults(prompt).length === 0
        ? {
            toolCalls: [
              { toolName: "ask", input: { question: "Who was at the dinner?" } },
              { toolName: "ask", input: { question: "Which project was it for?", options: ["Renewal", "Onboarding"] } },
            ],
          }
        : { text: "Filed." },
    );
    const runtime = createRuntime({ db: database.db, workflows: [] });
    const task = newTask();

    const parked = await runtime.ask(agent, task, [turn.user("File the dinner.")]);
    expect(parked.parked && parked.questions.map((question) => question.text)).toEqual(["Who was at the dinner?", "Which project was it for?"]);
    const [who, which] = parked.parked ? parked.questions : [];

    const stillParked = await runtime.answer(agent, task, "Renewal", { questionId: which!.id });
    expect(stillParked).toMatchObject({ parked: true, questions: [{ id: who!.id }] });
    expect(model.calls).toHaveLength(1);

    const resumed = await runtime.answer(agent, task, "Sam and two people from Acme", { questionId: who!.id });
    expect(resumed).toEqual({ parked: false, text: "Filed." });
    expect(model.calls).toHaveLength(2);
    expect(toolResults(model.calls[1]!.prompt).map((part) => part.type === "tool-result" && [part.toolCallId, part.output])).toEqual([
      [which!.toolCallId, { type: "text", value: "Renewal" }],
      [who!.toolCallId, { type: "text", value: "Sam and two people from Acme" }],
    ]);
  });
});
