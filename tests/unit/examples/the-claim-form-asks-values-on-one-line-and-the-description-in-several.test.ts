import { describe, expect, it } from "vitest";

import { claimInput } from "@/examples/expense-review/claim-input";
import { asksForLongText, specFromSchema } from "@/lib/questions";

const spec = specFromSchema(claimInput({ people: [{ id: "11111111-1111-4111-8111-111111111111", name: "Ada Here", away: false }] }));
const field = (path: string) => {
  const found = spec.fields.find((candidate) => candidate.path === path);
  if (found === undefined) throw new Error(`the claim form has no field ${path}`);
  return found;
};

describe("the expense review's start form", () => {
  it("asks the title, the merchant and the amount on one line", () => {
    expect(["title", "merchant", "amount"].map((path) => asksForLongText(field(path)))).toEqual([false, false, false]);
  });

  it("asks the description in a box of several lines", () => {
    expect(asksForLongText(field("description"))).toBe(true);
  });
});
