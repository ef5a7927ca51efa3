import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { type AgentDefinition, createRuntime, defineAgent, turn } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { askReply, countRows, newTask } from "./agents";
import { FileTask } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("an agent without persistent memory (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  it("is refused at the ask, with the agent named and the line that fixes it", async () => {
    database = await createTestDatabase(kind);
    // Types refuse a loop without persistent memory; plain JavaScript gets this far, and the ask refuses it.
    const model = createScriptedModel({ respond: () => askReply("Who approved this?") });
    const untyped: unknown = { name: "Forgetful", prompt: "You file things.", memory: "none", loop: () => FileTask, model };
    const agent = defineAgent(untyped as AgentDefinition);
    const asking = createRuntime({ db: database.db, workflows: [] }).ask(agent, newTask(), [turn.user("Check this.")]);
    await expect(asking).rejects.toBeInstanceOf(AppError);
    await expect(asking).rejects.toMatchObject({ code: "memory_not_persistent", message: expect.stringContaining("Forgetful") });
    await expect(asking).rejects.toMatchObject({ message: expect.stringContaining('memory: "persistent"') });
    expect(await countRows(database.db, "asks")).toBe(0);
  });
});
