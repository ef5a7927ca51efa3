import { afterEach, describe, expect, it } from "vitest";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { storedMessages } from "./agents";
import { CLERK_OPTIONS, createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

/*
 * An agent's ask that offers options lets the person pick one or write their own answer instead; the
 * agent gets the words either way (`{ text }`), through the browser's form and the terminal's text.
 */
describe.each(DATABASE_KINDS)("an agent's ask with options (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  /** The Clerk's second question, the one with options: answered thinly first so it asks it. */
  async function askedWithOptions() {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const [first] = await fixture.runtime.questionsFor(fixture.filer.id);
    await fixture.runtime.submitAnswer({ questionId: first!.id, by: fixture.filer.id, answer: { form: { answer: "A dinner." } } });
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    return { task, question: question! };
  }

  async function toolResults(taskId: string): Promise<string> {
    const results = (await storedMessages(fixture.database.db, "Clerk", taskId)).filter((message) => message.role === "tool");
    return JSON.stringify(results.at(-1)?.message);
  }

  it("offers the options as suggestions on a text question", async () => {
    const { question } = await askedWithOptions();
    expect(question.spec.fields[0]).toMatchObject({ kind: "text", options: CLERK_OPTIONS.map((value) => ({ value, label: value })) });
  });

  it("takes the person's own words from the browser's form, and the agent gets them as its call's result", async () => {
    const { task, question } = await askedWithOptions();
    // "In my own words" ticked (it posts ""), then the box's text.
    const result = await fixture.runtime.submitAnswer({ questionId: question.id, by: fixture.filer.id, answer: { form: { answer: ["", "A farewell gift for a colleague"] } } });
    expect(result).toMatchObject({ status: "answered", value: { answer: "A farewell gift for a colleague" } });
    await fixture.runtime.drain();
    expect(await toolResults(task.id)).toContain("A farewell gift for a colleague");
    const [, second] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(second).toMatchObject({ status: "answered", answer: { text: "A farewell gift for a colleague" } });
  });

  it("takes a picked option from the form as that option's words", async () => {
    const { task, question } = await askedWithOptions();
    const result = await fixture.runtime.submitAnswer({ questionId: question.id, by: fixture.filer.id, answer: { form: { answer: ["", "Team travel"] } } });
    expect(result).toMatchObject({ status: "answered", value: { answer: "Team travel" } });
    await fixture.runtime.drain();
    expect(await toolResults(task.id)).toContain("Team travel");
  });

  it("at the terminal, takes an option's number as the option and any other text as the person's own answer", async () => {
    const byNumber = await askedWithOptions();
    expect(await fixture.runtime.submitAnswer({ questionId: byNumber.question.id, by: fixture.filer.id, answer: { text: { answer: "2" } } })).toMatchObject({
      status: "answered",
      value: { answer: CLERK_OPTIONS[1] },
    });
    await fixture.database.close();
    const ownWords = await askedWithOptions();
    expect(await fixture.runtime.submitAnswer({ questionId: ownWords.question.id, by: fixture.filer.id, answer: { text: { answer: "Office plants" } } })).toMatchObject({
      status: "answered",
      value: { answer: "Office plants" },
    });
  });

  it("still refuses an empty answer, asking for a pick or the person's own words", async () => {
    const { question } = await askedWithOptions();
    const result = await fixture.runtime.submitAnswer({ questionId: question.id, by: fixture.filer.id, answer: { form: { answer: ["", ""] } } });
    expect(result).toMatchObject({ status: "refused", counted: false });
  });
});
