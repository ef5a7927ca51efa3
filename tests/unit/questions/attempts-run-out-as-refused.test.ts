import { describe, expect, it } from "vitest";

import { attemptLabel, attemptsLeft, DEFAULT_ATTEMPTS, InvalidAttemptsError, recordRefusal, startAttempts } from "@/lib/questions/attempts";

describe("refused submissions are counted, and running out ends the question as refused", () => {
  it("allows three attempts unless told otherwise", () => {
    expect(startAttempts()).toEqual({ allowed: DEFAULT_ATTEMPTS, refused: 0 });
    expect(DEFAULT_ATTEMPTS).toBe(3);
  });

  it("labels the first attempt as attempt 1 of 3", () => {
    expect(attemptLabel(startAttempts())).toBe("attempt 1 of 3");
  });

  it("offers attempt 2 of 3 after one refusal", () => {
    expect(recordRefusal(startAttempts())).toEqual({ status: "again", attempts: { allowed: 3, refused: 1 }, label: "attempt 2 of 3" });
  });

  it("ends with reason refused after the third refusal", () => {
    let attempts = startAttempts();
    const outcomes = [1, 2, 3].map(() => {
      const outcome = recordRefusal(attempts);
      attempts = outcome.attempts;
      return outcome.status;
    });
    expect(outcomes).toEqual(["again", "again", "refused"]);
    expect(recordRefusal({ allowed: 3, refused: 2 })).toMatchObject({ status: "refused", reason: "refused" });
  });

  it("honours a configured number of attempts", () => {
    expect(recordRefusal(startAttempts(1))).toMatchObject({ status: "refused", reason: "refused" });
    expect(recordRefusal(startAttempts(5))).toMatchObject({ status: "again", label: "attempt 2 of 5" });
  });

  it("counts the attempts left", () => {
    expect(attemptsLeft({ allowed: 3, refused: 1 })).toBe(2);
  });

  it("refuses a number of attempts that is not a whole number of at least one", () => {
    for (const allowed of [0, -1, 2.5, Number.NaN]) expect(() => startAttempts(allowed)).toThrow(InvalidAttemptsError);
  });

  it("is plain data that survives being stored as JSON", () => {
    const outcome = recordRefusal(startAttempts(4));
    expect(JSON.parse(JSON.stringify(outcome.attempts))).toEqual({ allowed: 4, refused: 1 });
  });
});
