import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";

import { createScriptedModel } from "@/lib/models/scripted-model";
import { callModel } from "@/lib/runtime/model-call";

// A runtime holds a conversation's messages and hands the model the same objects turn after turn, the
// history growing at its end; the prompt it builds is kept and only extended. Whatever it kept, the
// model must be given what a runtime reading the conversation afresh would give it.

const model = createScriptedModel({ respond: () => ({ text: "Noted." }) });

async function promptFor(history: readonly ModelMessage[], fresh: readonly ModelMessage[] = []) {
  await callModel({ model, system: "You review expense claims.", history, fresh, tools: {}, maxSteps: 1, abortSignal: new AbortController().signal });
  return model.calls.at(-1)!.prompt;
}

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const asked = (id: string): ModelMessage => ({ role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: "ask", input: { question: `Why ${id}?` } }] });
const answered = (id: string, text: string): ModelMessage => ({ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "ask", output: { type: "text", value: text } }] });
const said = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });

describe("a conversation that grows turn after turn", () => {
  it("reaches the model whole and in order at every turn, as a copy read afresh would", async () => {
    const history: ModelMessage[] = [user("Review claim 17.")];
    const turns: ModelMessage[][] = [[asked("a"), answered("a", "A client dinner.")], [said("Approved."), user("And claim 18?")], [asked("b"), answered("b", "Taxi.")]];
    for (const turn of turns) {
      history.push(...turn);
      const held = await promptFor(history, [user("Go on.")]);
      const afresh = await promptFor(structuredClone(history), [user("Go on.")]);
      expect(held).toEqual(afresh);
      expect(held.map((message) => message.role)).toEqual(["system", ...history.map((message) => message.role), "user"]);
    }
  });

  it("gives two answers in a row as one tool message, across turns, and leaves the prompt given before as it was", async () => {
    const history: ModelMessage[] = [user("Review claim 17."), { role: "assistant", content: [...(asked("a").content as []), ...(asked("b").content as [])] }, answered("a", "Dinner.")];
    const before = structuredClone(await promptFor(history));
    const first = model.calls.at(-1)!.prompt;
    history.push(answered("b", "Taxi."));
    const after = await promptFor(history);
    expect(after.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(after[3]!.content).toEqual([expect.objectContaining({ toolCallId: "a" }), expect.objectContaining({ toolCallId: "b" })]);
    expect(first).toEqual(before);
  });

  it("is built again when the history does not go on from the one before", async () => {
    const opening = user("Review claim 17.");
    await promptFor([opening, said("Approved.")]);
    const prompt = await promptFor([opening, said("Rejected.")]);
    expect(prompt[2]).toEqual({ role: "assistant", content: [{ type: "text", text: "Rejected." }] });
  });
});
