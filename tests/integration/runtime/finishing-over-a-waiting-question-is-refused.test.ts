import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { claims, reviewTasks } from "@/examples/expense-review/schema";
import { createRuntime, defineWorkflow, turn } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { askReply, loopAgent } from "./agents";
import { UNEXPLAINED_CLAIM } from "./example-fixture";

const { agent: Clerk } = loopAgent(() => askReply("Who signed this off?"));

/** A workflow that ignores `parked` and declares success over a question nobody has answered. */
const Careless = defineWorkflow({
  name: "Careless",
  tracks: reviewTasks,
  initial: "Running",
  states: {
    Running: {
      async enter(run) {
        await Clerk.ask(run.item, [turn.user("File this.")]);
        return run.goto("Completed");
      },
    },
    Completed: { terminal: "success" },
  },
});

describe.each(DATABASE_KINDS)("a workflow that finishes over a waiting question (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  it("is refused, and the task is left retryable rather than completed", async () => {
    database = await createTestDatabase(kind);
    const [claim] = await database.db.insert(claims).values(UNEXPLAINED_CLAIM).returning();
    const [task] = await database.db.insert(reviewTasks).values({ claimId: claim!.id }).returning();
    const runtime = createRuntime({ db: database.db, workflows: [Careless] });
    await runtime.start(Careless, task!);
    await runtime.drain();

    const [row] = await database.db.select().from(reviewTasks).where(eq(reviewTasks.id, task!.id));
    expect(row?.status).toBe("retryable");
    const [failed] = (await runtime.events(task!.id)).filter((event) => event.kind === "failed");
    expect(failed?.data).toMatchObject({ code: "still_waiting", cause: expect.stringContaining("branch on reply.parked") });
  });
});
