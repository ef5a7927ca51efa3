import { describe, expect, it } from "vitest";

import { parseFormAnswer } from "@/lib/questions/form-answer";
import { parseTextAnswer } from "@/lib/questions/parse-text-answer";
import { agentAskSpec } from "@/lib/runtime/agent-question";
import { promptFor } from "@/lib/runtime/terminal";

/** An agent's ask offering options: a text question whose options are suggestions. */
const [cost] = agentAskSpec("Which kind of cost was it?", ["A client meeting", "Team travel"]).fields;

describe("an agent's ask with options takes one of them or the person's own words", () => {
  it("is a text question offering the options", () => {
    expect(cost).toMatchObject({ kind: "text", options: [{ value: "A client meeting" }, { value: "Team travel" }] });
  });

  it("at the terminal, takes an option by its number or its word", () => {
    expect(parseTextAnswer(cost!, "2")).toEqual({ ok: true, value: "Team travel" });
    expect(parseTextAnswer(cost!, "a client meeting")).toEqual({ ok: true, value: "A client meeting" });
  });

  it("at the terminal, takes any other text as the person's own answer", () => {
    expect(parseTextAnswer(cost!, "  Office plants ")).toEqual({ ok: true, value: "Office plants" });
    expect(parseTextAnswer(cost!, "7")).toEqual({ ok: true, value: "7" });
  });

  it("in the browser, takes the box's text exactly as typed, a number too", () => {
    expect(parseFormAnswer(cost!, ["", "2"])).toEqual({ ok: true, value: "2" });
    expect(parseFormAnswer(cost!, ["", "Team travel"])).toEqual({ ok: true, value: "Team travel" });
  });

  it("says at the terminal that the person may answer in their own words", () => {
    expect(promptFor(cost!, 0, 1)).toBe("Question 1 of 1: Which kind of cost was it?\n  1. A client meeting\n  2. Team travel\n  (a number or the word, or your own answer)");
  });
});
