import { describe, expect, it } from "vitest";

import { validateFormAnswer } from "parley/testing";

import { claimInput } from "../claim-input";
import { Reimbursement } from "../reimbursement";

const sam = { id: "5b3c1f0e-8a54-4f3a-9a43-2f1f6c1d9e01", name: "Sam Rivera", away: false };
const claim = { title: "Dinner, Lisbon", merchant: "Tasca", amount: "41.20", currency: "EUR", incurredOn: "2026-11-03", assigneeId: sam.id };

async function refusalsOf(form: Record<string, string>) {
  const verdict = await validateFormAnswer(claimInput({ people: [sam] }), form);
  return verdict.ok ? {} : verdict.fieldErrors;
}

describe("each refusal of a claim says what to do, once", () => {
  for (const [amount, message] of [
    ["-5", "The amount must be more than zero."],
    ["0.00", "The amount must be more than zero."],
    ["12,50", "Write the amount as a number with up to two decimals, like 412.80."],
    ["", "Enter the amount, like 412.80."],
  ] as const) {
    it(`refuses the amount "${amount}" with "${message}" alone`, async () => {
      expect((await refusalsOf({ ...claim, amount })).amount).toEqual([message]);
    });
  }

  it("refuses a three-letter word that is no currency, naming it", async () => {
    expect((await refusalsOf({ ...claim, currency: "dol" })).currency).toEqual(["DOL is not a currency code; use one like USD or EUR."]);
  });

  it("takes a currency code typed in lower case on the reimbursement too", async () => {
    const verdict = await validateFormAnswer(Reimbursement, { method: "payroll", urgent: "no", currency: "usd", attendees: "Ana" });
    expect(verdict.ok && verdict.value.currency).toBe("USD");
  });

  it("asks for a choice left unchosen in the words every missing answer gets, not 'Invalid input'", async () => {
    const verdict = await validateFormAnswer(Reimbursement, { currency: "EUR", attendees: "Ana" });
    expect(verdict.ok === false && verdict.fieldErrors.method).toEqual(["This question needs an answer."]);
  });
});
