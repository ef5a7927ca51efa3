import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { expenseReview } from "@/examples/expense-review";
import { loadQuestionRun } from "@/lib/question-view";
import { createRegistry } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("a question's page (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("reads its run's workflow once, and describes the run's task and context by it", async () => {
    fixture = await createExampleFixture(kind);
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);

    // The same database, through a connection that writes down every statement.
    const statements: string[] = [];
    const logger = { logQuery: (query: string) => void statements.push(query) };
    const { pglite, postgres } = fixture.database;
    const db = (pglite ? drizzlePglite({ client: pglite, schema, logger }) : drizzlePostgres({ client: postgres!, schema, logger })) as unknown as Db;

    const loaded = await loadQuestionRun(db, createRegistry({ apps: [expenseReview] }), question!);
    expect(loaded).toMatchObject({ run: { workflow: "ReviewClaim", status: "waiting" }, subject: { workflow: "ReviewClaim", title: "Claim: Dinner, Lisbon" }, context: { title: "Dinner, Lisbon" } });
    expect(statements.filter((statement) => /\bworkflow_instances\b/.test(statement))).toHaveLength(1);
  });
});
