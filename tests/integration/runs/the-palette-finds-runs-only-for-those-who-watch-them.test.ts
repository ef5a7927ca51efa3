import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { deployApproval } from "@/examples/deploy-approval";
import { DeployApproval } from "@/examples/deploy-approval/deploy-approval";
import { findForPalette, placesFor } from "@/lib/palette";
import { createRegistry, startPlatformTask } from "@/lib/registry";
import { createRuntime } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("the command palette (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** Lee (who answers and starts runs) started a deployment of each service; Sam only answers. */
  async function runsOf(services: string[]) {
    database = await createTestDatabase(kind);
    const [lee, sam] = (await insertUsersIfAbsent(database.db, [
      { email: "lee@parley.test", name: "Lee Okafor", roles: ["assignee", "operator"] },
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
    ])) as [User, User];
    const runtime = createRuntime({ db: database.db, workflows: [DeployApproval] });
    const ids = new Map<string, string>();
    for (const service of services) {
      const input = { service, version: "1.0.0", environment: "staging" as const, change: "A change.", rollbackTested: false, approverId: lee.id };
      ids.set(service, (await startPlatformTask(database.db, runtime, DeployApproval, { title: `Deploy ${service} to staging`, input, by: lee.id })).id);
    }
    return { lee, sam, ids, registry: createRegistry({ apps: [deployApproval] }) };
  }

  it("finds a run by every word typed, in its title or its workflow's name", async () => {
    const { lee, ids, registry } = await runsOf(["billing-api", "search-api", "billing-worker"]);
    const found = await findForPalette(database!.db, registry, lee, "Billing API deployment", new Date());
    expect(found.runs.map((run) => run.href)).toEqual([`/tasks/${ids.get("billing-api")}`]);
    expect(found.runs[0]!.detail).toMatch(/^Deployment approval · /);
  });

  it("shows someone who only answers questions no runs and no page of runs", async () => {
    const { sam, registry } = await runsOf(["billing-api"]);
    const found = await findForPalette(database!.db, registry, sam, "billing", new Date());
    expect(found.runs).toEqual([]);
    expect(placesFor(sam, registry).map((place) => place.href)).not.toContainEqual(expect.stringMatching(/^\/(runs|admin)/));
  });
});
