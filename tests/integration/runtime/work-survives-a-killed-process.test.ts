import { spawn } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

// Two processes can share only a PostgreSQL server; PGlite has one owner.
describe.runIf(DATABASE_KINDS.includes("postgres"))("a worker process killed with SIGKILL (postgres)", () => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("between the model call and storing the turn loses nothing: a new process finishes the run once", async () => {
    fixture = await createRuntimeFixture("postgres");
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const answer = "Dinner with the Acme procurement team to close the renewal.";
    await fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: answer }, by: fixture.filer.id });

    const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "tests/integration/runtime/crash-worker.ts", fixture.database.url!], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("model-returned") && resolve());
      child.on("exit", () => reject(new Error("the worker exited before reaching the model")));
    });
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    // The dead worker's lease has to run out before anyone else may take its job.
    const restarted = fixture.restart({ now: () => new Date(Date.now() + 61_000) });
    await restarted.runtime.drain();

    const db = fixture.database.db;
    const [row] = await db.select().from(tasks).where(eq(tasks.id, task.id));
    // Filed: the Clerk took the answer and the run completed.
    expect(row?.status).toBe("completed");
    expect(await countRows(db, "conversation_messages", "tool_call_id is not null")).toBe(1);
    expect(await countRows(db, "conversation_messages", "role = 'assistant'")).toBe(2);
    expect(await countRows(db, "jobs", "kind = 'event' and attempts = 2 and status = 'done'")).toBe(1);
  }, 60_000);
});
