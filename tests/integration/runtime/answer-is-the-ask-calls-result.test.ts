import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { CLERK_QUESTION, createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("the answer (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("is written as that call's result, and the resumed run replays the whole conversation", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const answer = "Dinner with the Acme procurement team to close the renewal.";
    await fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: answer }, by: fixture.filer.id });
    await fixture.runtime.drain();

    const [first, second] = fixture.model.calls;
    const askCall = first && second ? second.prompt.find((message) => message.role === "assistant") : undefined;
    expect(second?.prompt.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second?.prompt[1]).toEqual(first?.prompt[1]); // the original instruction
    expect(askCall?.content).toEqual([
      expect.objectContaining({ type: "tool-call", toolName: "ask", toolCallId: "call-2-0", input: expect.objectContaining({ question: CLERK_QUESTION }) }),
    ]);
    expect(second?.prompt[3]?.content).toEqual([
      expect.objectContaining({ type: "tool-result", toolCallId: "call-2-0", toolName: "ask", output: { type: "text", value: answer } }),
    ]);
  });
});
