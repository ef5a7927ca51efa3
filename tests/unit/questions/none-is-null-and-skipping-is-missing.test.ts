import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";
import { validateTextAnswers } from "@/lib/questions/validate-answer";

import { fieldOf } from "./field";

const schema = z.object({ manager: z.string().nullish() });

describe("none (null) and skipped (undefined) are different answers", () => {
  it("reads none, in any case, as null on a nullable field", () => {
    expect(parseTextAnswer(fieldOf(z.string().nullable()), "NONE")).toEqual({ ok: true, value: null });
  });

  it("gives null in the value for none", async () => {
    expect(await validateTextAnswers(schema, { manager: "none" })).toMatchObject({ ok: true, value: { manager: null } });
  });

  it("leaves a skipped field out of the value", async () => {
    const result = await validateTextAnswers(schema, { manager: "" });
    expect(result.ok && Object.keys(result.value)).toEqual([]);
  });

  it("keeps none as ordinary text on a field that is not nullable", () => {
    expect(parseTextAnswer(fieldOf(z.string()), "none")).toEqual({ ok: true, value: "none" });
  });

  it("reads none as null for a nullable number, not as a bad number", () => {
    expect(parseTextAnswer(fieldOf(z.number().nullable()), "none")).toEqual({ ok: true, value: null });
  });
});
