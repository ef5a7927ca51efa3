import { describe, expect, it } from "vitest";
import { personChoice } from "@/lib/registry";
import { specFromSchema } from "@/lib/questions";
import { z } from "zod";

const people = [
  { id: "11111111-1111-4111-8111-111111111111", name: "Ada Here", away: false },
  { id: "22222222-2222-4222-8222-222222222222", name: "Bo Away", away: true, delegateName: "Ada Here" },
  { id: "33333333-3333-4333-8333-333333333333", name: "Cy Away", away: true, delegateName: null },
];

describe("a start form's choice of person", () => {
  it("offers each person by name, saying who is away and who answers for them", () => {
    const spec = specFromSchema(z.object({ who: personChoice(people, "Who answers?") }));
    expect(spec.fields[0]!.options!.map((option) => option.label)).toEqual([
      "Ada Here",
      "Bo Away (away — Ada Here answers for them)",
      "Cy Away (away — cannot be asked)",
    ]);
  });

  it("is asked as a choice found by typing, in the question's own words", () => {
    const [field] = specFromSchema(z.object({ who: personChoice(people, "Who answers?") })).fields;
    expect([field!.kind, field!.question, field!.hints.searchable]).toEqual(["enum", "Who answers?", true]);
  });

  it("takes someone away who named a delegate: the question goes to the delegate", () => {
    expect(personChoice(people, "Who answers?").safeParse(people[1]!.id).success).toBe(true);
  });

  it("refuses someone away who named nobody, saying so in their name", () => {
    const parsed = personChoice(people, "Who answers?").safeParse(people[2]!.id);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual(["Cy Away is away and named nobody to answer for them: choose someone else."]);
  });
});
