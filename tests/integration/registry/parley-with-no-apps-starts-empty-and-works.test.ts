import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, MIGRATIONS_FOLDER } from "@/db/client";
import { listOpenSlots } from "@/db/queries/sla";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { loadInbox } from "@/lib/inbox";
import { createRegistry, type Registry } from "@/lib/registry";
import { loadRunPage, loadRuns, startableWorkflows } from "@/lib/runs";
import { createRuntime } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("Parley with no apps registered (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function emptyParley(): Promise<{ registry: Registry; operator: User; assignee: User }> {
    const registry = createRegistry({ apps: [] });
    database = await createTestDatabase(kind, { migrated: false });
    await migrateDatabase(database, [{ folder: MIGRATIONS_FOLDER }, ...registry.migrations()]);
    const [operator, assignee] = (await insertUsersIfAbsent(database.db, [
      { email: "omar@parley.test", name: "Omar Operator", roles: ["operator"] },
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
    ])) as [User, User];
    return { registry, operator, assignee };
  }

  it("offers no workflow to start and lists no runs; it hosts only the platform's own API ask", async () => {
    const { registry, operator } = await emptyParley();
    expect(registry.entries.map((entry) => entry.workflow.name)).toEqual(["ApiAsk"]);
    expect(startableWorkflows(registry, operator)).toEqual([]);
    const { rows, counts, total } = await loadRuns(database!.db, registry, {});
    expect(rows).toEqual([]);
    const none = { count: 0, atLeast: false };
    expect(counts).toEqual({ running: none, waiting: none, completed: none, failed: none, nothing: none, cancelled: none });
    expect(total).toEqual(none);
    expect(await loadRunPage(database!.db, registry, "00000000-0000-4000-8000-000000000000")).toBeUndefined();
  });

  it("has an empty inbox and no open waits", async () => {
    const { registry, assignee } = await emptyParley();
    const inbox = await loadInbox(database!.db, assignee.id, "assigned", new Date(), { registry });
    expect(inbox.rows).toEqual([]);
    expect(inbox.answered).toEqual([]);
    expect(await listOpenSlots(database!.db, {}, new Date())).toEqual([]);
  });

  it("runs a worker that finds no work and has nothing to ask anyone", async () => {
    const { registry, assignee } = await emptyParley();
    const runtime = createRuntime({ db: database!.db, workflows: registry.workflows });
    expect(await runtime.drain()).toBe(0);
    expect(await runtime.questionsFor(assignee.id)).toEqual([]);
  });
});
