import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { createRuntime, defineWorkflow, turn } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { askReply } from "./agents";
import { Clerk, FileTask } from "./fixture-workflow";

/** The Clerk's model here: it asks, and asks again. */
const asking = createScriptedModel({ respond: () => askReply("Who signed this off?") });

/** A workflow that ignores `parked` and declares success over a question nobody has answered. */
const Careless = defineWorkflow({
  name: "Careless",
  tracks: tasks,
  agents: { Clerk },
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
    const [task] = await database.db.insert(tasks).values({ workflow: Careless.name, title: "Careless", input: {} }).returning();
    const runtime = createRuntime({ db: database.db, workflows: [Careless, FileTask], resolveModel: () => asking });
    await runtime.start(Careless, task!);
    await runtime.drain();

    const [row] = await database.db.select().from(tasks).where(eq(tasks.id, task!.id));
    expect(row?.status).toBe("retryable");
    const [failed] = (await runtime.events(task!.id)).filter((event) => event.kind === "failed");
    expect(failed?.data).toMatchObject({ code: "still_waiting", cause: expect.stringContaining("branch on reply.parked") });
  });
});
