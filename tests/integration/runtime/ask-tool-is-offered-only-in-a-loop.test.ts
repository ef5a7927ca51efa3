import { afterEach, describe, expect, it } from "vitest";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { createRuntime, defineAgent, turn } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { loopAgent, newTask } from "./agents";

describe.each(DATABASE_KINDS)("the ask tool (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  it("is in the tool list of an agent that runs in a loop", async () => {
    database = await createTestDatabase(kind);
    const { agent, model } = loopAgent(() => ({ text: "Done." }));
    await createRuntime({ db: database.db, workflows: [] }).ask(agent, newTask(), [turn.user("File this.")]);
    const tools = model.calls[0]?.tools ?? [];
    expect(tools.map((tool) => tool.name)).toEqual(["ask"]);
    expect(tools[0]).toMatchObject({ type: "function", inputSchema: { properties: { question: { type: "string" }, options: { type: "array" } } } });
  });

  it("is absent from the tool list of an agent with no loop", async () => {
    database = await createTestDatabase(kind);
    const model = createScriptedModel({ respond: () => ({ text: "Done." }) });
    const agent = defineAgent({ name: "Loner", prompt: "You file things.", memory: "persistent", model });
    await createRuntime({ db: database.db, workflows: [] }).ask(agent, newTask(), [turn.user("File this.")]);
    expect(model.calls).toHaveLength(1);
    expect((model.calls[0]?.tools ?? []).map((tool) => tool.name)).not.toContain("ask");
  });
});
