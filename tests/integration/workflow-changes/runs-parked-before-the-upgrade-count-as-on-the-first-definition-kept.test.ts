import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { migrateDatabase, queryRows } from "@/db/client";
import { answerOf } from "@/lib/runtime";
import { parleyMigrations } from "@/lib/database";
import { checkWorkflowChangesAtStart, runDefinitionNotice } from "@/lib/workflow-changes";
import { createRegistry, defineApp } from "@/lib/registry";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { migrationsBefore } from "@/tests/support/migrations";
import { FileTask, PayBack, Payback } from "../runtime/fixture-workflow";
import { payBackChanged } from "./changed-workflows";

/** The migration that gives runs the definition that moved them. */
const MIGRATION = "0028_a_run_keeps_the_definition_that_moved_it";

describe.each(DATABASE_KINDS)("upgrading a database with runs parked on a workflow (%s)", (kind) => {
  let database: TestDatabase | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  /** A database as the release before left it, with one PayBack run parked on its questionnaire, then upgraded. */
  async function upgradedWithAParkedRun(): Promise<{ taskId: string }> {
    database = await createTestDatabase(kind, { migrated: false });
    folder = migrationsBefore(MIGRATION);
    await migrateDatabase(database, folder);
    const { db } = database;
    const [instance, taskId] = [randomUUID(), randomUUID()];
    await db.execute(sql`insert into workflow_instances (id, workflow, task_id, state, status) values (${instance}, 'PayBack', ${taskId}, 'Asking', 'waiting')`);
    await db.execute(sql`insert into slots (workflow_instance_id, workflow, task_id, state, event, opened_at) values (${instance}, 'PayBack', ${taskId}, 'Asking', 'PaidBack', now())`);
    await migrateDatabase(database, parleyMigrations());
    return { taskId };
  }

  const changed = () => payBackChanged({ events: { PaidBack: answerOf(Payback.extend({ iban: z.string() })) } });

  it("leaves the runs' definition unknown (null) rather than rewriting every run", async () => {
    await upgradedWithAParkedRun();
    expect(await queryRows(database!.db, sql`select definition_fingerprint from workflow_instances`)).toEqual([{ definition_fingerprint: null }]);
  });

  it("warns of nothing at the first start after the upgrade: those runs count as on the definition it runs", async () => {
    await upgradedWithAParkedRun();
    const lines: string[] = [];
    await checkWorkflowChangesAtStart(database!.db, [FileTask, PayBack], (line) => lines.push(line));
    expect(lines).toEqual([]);
  });

  it("counts them, at a later start whose definition breaks them, as on the first definition kept", async () => {
    const { taskId } = await upgradedWithAParkedRun();
    await checkWorkflowChangesAtStart(database!.db, [FileTask, PayBack], () => {});
    const deployed = changed();
    const reports = await checkWorkflowChangesAtStart(database!.db, [FileTask, deployed], () => {});
    expect(reports).toMatchObject([{ workflow: "PayBack", runs: 1, changes: [{ change: 'the answer to PaidBack: the field "iban" is new and required: questions already asked do not ask for it' }] }]);
    const registry = createRegistry({ apps: [defineApp({ name: "payback", workflows: [{ workflow: deployed, label: "Payback", describe: async () => new Map() }] })] });
    expect(await runDefinitionNotice(database!.db, registry, taskId)).toMatchObject({ workflowLabel: "Payback", changes: [expect.stringContaining("“Iban”")] });
  });
});
