import { createTestKit, type DatabaseKind, type Runtime, type RuntimeOptions, type TestDatabase, type User } from "parley/testing";
import { expenseReview } from "..";
import { startReview } from "../start-review";

/** A claim the record can't explain: the Auditor will ask about it. */
export const UNEXPLAINED_CLAIM = {
  title: "Dinner, Lisbon",
  amountCents: 48_250,
  currency: "EUR",
  merchant: "Cervejaria Ramiro",
  incurredOn: "2026-11-03",
  description: "Dinner.",
};

/** A claim the record explains: the Auditor approves it without asking, and the filer is asked how to be paid back. */
export const EXPLAINED_CLAIM = {
  title: "Taxi to the client",
  amountCents: 3_400,
  currency: "EUR",
  merchant: "Lisbon Taxis",
  incurredOn: "2026-11-04",
  description: "Taxi from the airport to the Acme office for the renewal meeting.",
};

/**
 * The expense review under test (parley/testing's kit): a database with Sam and Priya (assignees) and
 * Omar (operator), a runtime on the scripted Auditor, and reviews of the two claims above.
 */
export interface ExampleFixture {
  database: TestDatabase;
  runtime: Runtime;
  sam: User;
  priya: User;
  omar: User;
  startUnexplainedReview(): ReturnType<typeof startReview>;
  /** Starts a review the Auditor approves at once (filer: Sam) and runs it to the Reimbursement question. */
  startApprovedReview(): ReturnType<typeof startReview>;
}

/** The kit on `kind` of database; `options` go to the runtime (a clock, `announce`, another model). */
export async function createExampleFixture(kind: DatabaseKind, options: Partial<RuntimeOptions> = {}): Promise<ExampleFixture> {
  const kit = await createTestKit({ app: expenseReview, database: kind, people: ["sam", "priya", "omar"], runtime: options });
  const { database, runtime } = kit;
  const { sam, priya, omar } = kit.people;
  return {
    database,
    runtime,
    sam,
    priya,
    omar,
    startUnexplainedReview: () => startReview(database.db, runtime, { claim: UNEXPLAINED_CLAIM, assigneeId: sam.id, createdBy: omar.id }),
    async startApprovedReview() {
      const task = await startReview(database.db, runtime, { claim: EXPLAINED_CLAIM, assigneeId: sam.id, createdBy: omar.id });
      await runtime.drain();
      return task;
    },
  };
}
