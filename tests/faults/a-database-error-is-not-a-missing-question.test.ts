import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { createRuntime } from "@/lib/runtime";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { adminPostgresUrl } from "./support/prerequisites";

/*
 * Found by the PostgreSQL restart test: an answer sent as the database went away was told "There is
 * no such question, or it is not yours to answer" (not_found, a 4xx) — the sign-in check had
 * passed, and the question's read failed. runtime.questionFor catches every error of that read
 * and returns null (lib/runtime/answer-questions.ts), so a failing database reads as a missing
 * question. It should fail (and the action answer `internal`: "Something went wrong on our side").
 */
describe("a database error while reading a question", () => {
  let database: FaultDatabase | undefined;
  afterAll(async () => database?.drop());

  it("is an error, not a question that does not exist", async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "qerror");
    const runtime = createRuntime({ db: database.database.db, workflows: [ReviewClaim] });
    // Every query on this connection fails from now on, as it does while the database restarts.
    await database.database.close();
    await expect(runtime.questionFor(randomUUID(), randomUUID())).rejects.toThrow();
  });
});
