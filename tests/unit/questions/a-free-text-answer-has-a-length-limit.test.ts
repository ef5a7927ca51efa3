import { describe, expect, it } from "vitest";
import { z } from "zod";

import { DEFAULT_TEXT_LIMIT, validateAnswer, validateFormAnswer, validateTextAnswers } from "@/lib/questions";

const Explanation = z.object({ reason: z.string().describe("Why?"), tags: z.array(z.string()).optional() });
const tooLong = "a".repeat(DEFAULT_TEXT_LIMIT + 1);

describe("a free-text answer has a length limit", () => {
  it("refuses a form's text past 10,000 characters on its field, saying the limit and the length", async () => {
    const verdict = await validateFormAnswer(Explanation, { reason: tooLong });
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.fieldErrors.reason).toEqual(["Keep this answer to 10,000 characters or fewer; it has 10,001."]);
  });

  it("refuses the same text sent as JSON, whatever surface it came from", async () => {
    const verdict = await validateAnswer(Explanation, { reason: tooLong });
    expect(verdict.ok === false && verdict.fieldErrors.reason).toEqual(["Keep this answer to 10,000 characters or fewer; it has 10,001."]);
  });

  it("refuses one item of a list of texts past the limit, on the list's field", async () => {
    const verdict = await validateAnswer(Explanation, { reason: "ok", tags: ["short", tooLong] });
    expect(verdict.ok === false && verdict.fieldErrors.tags).toEqual(["Keep this answer to 10,000 characters or fewer; it has 10,001."]);
  });

  it("takes a text of exactly 10,000 characters", async () => {
    const verdict = await validateTextAnswers(Explanation, { reason: "a".repeat(DEFAULT_TEXT_LIMIT) });
    expect(verdict.ok).toBe(true);
  });

  it("leaves a schema's own limit to the schema, in its own words", async () => {
    const Short = z.object({ note: z.string().max(20, "Keep the note under 20 characters.") });
    const verdict = await validateAnswer(Short, { note: tooLong });
    expect(verdict.ok === false && verdict.fieldErrors.note).toEqual(["Keep the note under 20 characters."]);
  });

});
