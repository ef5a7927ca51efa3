import { describe, expect, it } from "vitest";

import { validateFormAnswer } from "parley/testing";

import { claimInput } from "../claim-input";

const sam = { id: "5b3c1f0e-8a54-4f3a-9a43-2f1f6c1d9e01", name: "Sam Rivera", email: "sam@example.com", away: false, delegateName: null };
const claim = { title: "Dinner, Lisbon", merchant: "Tasca", currency: "EUR", incurredOn: "2026-11-03", assigneeId: sam.id };

describe("a claim larger than the claims table holds is refused on its amount", () => {
  it("refuses 99,999,999.99 on the amount field, saying the most a claim can be", async () => {
    const verdict = await validateFormAnswer(claimInput({ people: [sam] }), { ...claim, amount: "99999999.99" });
    expect(verdict.ok === false && verdict.fieldErrors.amount).toEqual(["Claims are up to 21,474,836.47; split a larger claim in two."]);
  });

  it("takes exactly 21,474,836.47", async () => {
    const verdict = await validateFormAnswer(claimInput({ people: [sam] }), { ...claim, amount: "21474836.47" });
    expect(verdict.ok && verdict.value.amount).toBe(2_147_483_647);
  });
});
