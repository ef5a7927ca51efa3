import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileRunStateStore, memoryRunStateStore, type RunStateStore } from "@parleyhq/client/openai-agents";
import { afterEach, describe, expect, it } from "vitest";

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function newDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), "parley-run-states-"));
  directories.push(directory);
  return directory;
}

const stores: [string, () => Promise<RunStateStore>][] = [
  ["in memory", async () => memoryRunStateStore()],
  ["in files", async () => fileRunStateStore(path.join(await newDirectory(), "runs"))],
];

describe.each(stores)("a run state store %s", (_, makeStore) => {
  it("gives back what was saved, the last save winning, and nothing for an unknown run", async () => {
    const store = await makeStore();
    await store.save("ticket-1", "first");
    await store.save("ticket-1", "second");
    expect(await store.load("ticket-1")).toBe("second");
    expect(await store.load("ticket-2")).toBeUndefined();
  });

  it("gives a run to exactly one of many takes at once, and then to nobody", async () => {
    const store = await makeStore();
    await store.save("ticket-1", "state");
    const taken = await Promise.all(Array.from({ length: 8 }, () => store.take("ticket-1")));
    expect(taken.filter((value) => value !== undefined)).toEqual(["state"]);
    expect(await store.load("ticket-1")).toBeUndefined();
    expect(await store.take("ticket-1")).toBeUndefined();
  });
});

describe("the file store", () => {
  it("keeps every run inside its directory, whatever its id, and leaves no file once a run is taken", async () => {
    const directory = await newDirectory();
    const store = fileRunStateStore(directory);
    await store.save("../escape", "a");
    await store.save("a/b\\c", "b");
    expect((await readdir(directory)).sort()).toEqual(["..%2Fescape.json", "a%2Fb%5Cc.json"]);
    expect(await readdir(path.dirname(directory))).not.toContain("escape.json");
    expect(await store.take("../escape")).toBe("a");
    expect(await store.take("a/b\\c")).toBe("b");
    expect(await readdir(directory)).toEqual([]);
  });
});
