import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { createAuditorModel } from "@/examples/expense-review/auditor-script";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { startReview } from "@/examples/expense-review/start-review";
import type { ScriptedModel } from "@/lib/models/scripted-model";
import { createRuntime, type Runtime, type RuntimeOptions } from "@/lib/runtime";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "@/tests/support/databases";

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

/** A database with the demo people, and a runtime on the scripted Auditor. */
export interface ExampleFixture {
  database: TestDatabase;
  model: ScriptedModel;
  runtime: Runtime;
  sam: User;
  priya: User;
  omar: User;
  /** Another runtime over the same database, as after a restart (fresh model, fresh everything). */
  restart(options?: Partial<RuntimeOptions>): { runtime: Runtime; model: ScriptedModel };
  startUnexplainedReview(): ReturnType<typeof startReview>;
  /** Starts a review the Auditor approves at once (filer: Sam) and runs it to the Reimbursement question. */
  startApprovedReview(): ReturnType<typeof startReview>;
}

export async function createExampleFixture(kind: DatabaseKind, options: Partial<RuntimeOptions> = {}): Promise<ExampleFixture> {
  const database = await createTestDatabase(kind);
  const [sam, priya, omar] = await insertUsersIfAbsent(database.db, [
    { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
    { email: "priya@parley.test", name: "Priya Shah", roles: ["assignee"] },
    { email: "omar@parley.test", name: "Omar Operator", roles: ["operator"] },
  ]);
  function build(extra: Partial<RuntimeOptions>) {
    const model = createAuditorModel();
    const runtime = createRuntime({ db: database.db, workflows: [ReviewClaim], resolveModel: () => model, ...options, ...extra });
    return { runtime, model };
  }
  const { runtime, model } = build({});
  return {
    database,
    model,
    runtime,
    sam: sam!,
    priya: priya!,
    omar: omar!,
    restart: build,
    startUnexplainedReview: () => startReview(database.db, runtime, { claim: UNEXPLAINED_CLAIM, assigneeId: sam!.id, createdBy: omar!.id }),
    async startApprovedReview() {
      const task = await startReview(database.db, runtime, { claim: EXPLAINED_CLAIM, assigneeId: sam!.id, createdBy: omar!.id });
      await runtime.drain();
      return task;
    },
  };
}
