import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MISSING_ANSWER_MESSAGE, validateTextAnswers } from "@/lib/questions/validate-answer";

describe("a required question left empty", () => {
  it("is refused with a plain sentence, not zod's type wording", async () => {
    const result = await validateTextAnswers(z.object({ name: z.string(), age: z.number() }), { name: "", age: "  " });
    expect(result).toMatchObject({ ok: false, fieldErrors: { name: [MISSING_ANSWER_MESSAGE], age: [MISSING_ANSWER_MESSAGE] } });
  });

  it("keeps the schema's own message verbatim when it has one", async () => {
    const result = await validateTextAnswers(z.object({ name: z.string({ error: "Tell us your name." }) }), {});
    expect(result).toMatchObject({ ok: false, fieldErrors: { name: ["Tell us your name."] } });
  });

  it("leaves a wrong value's refusal as the schema words it", async () => {
    const result = await validateTextAnswers(z.object({ code: z.string().regex(/^[A-Z]{3}$/, "Three capital letters.") }), { code: "eu" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { code: ["Three capital letters."] } });
  });
});
