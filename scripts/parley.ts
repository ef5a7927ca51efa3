// `npm run parley -- reimburse [--answers FILE.json] [--no-input]`: runs the claim review on its
// own database (in memory, or DATABASE_URL) up to the Reimbursement questionnaire, and asks it here.
// The workflows, their migrations and scripted models come from the registry (parley.config.ts).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { openDatabase } from "@/db/client";
import { startReview } from "@/examples/expense-review/start-review";
import { migrateParley } from "@/lib/database";
import { getRegistry } from "@/lib/registry/configured";
import { createRuntime } from "@/lib/runtime";
import { askAtTerminal, EXIT, nobodyThere, type TerminalIo } from "@/lib/runtime/terminal";

const USAGE = "usage: parley reimburse [--answers FILE.json] [--no-input]";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { answers: { type: "string" }, "no-input": { type: "boolean", default: false }, help: { type: "boolean", default: false } },
    allowPositionals: true,
  });
  if (values.help || positionals[0] !== "reimburse") {
    (values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  let answers: Record<string, unknown> | undefined;
  if (values.answers) {
    try {
      answers = JSON.parse(readFileSync(values.answers, "utf8")) as Record<string, unknown>;
    } catch (error) {
      process.stderr.write(`Could not read ${values.answers}: ${error instanceof Error ? error.message : String(error)}\n`);
      return EXIT.usage;
    }
  }
  const absent = nobodyThere({ noInput: values["no-input"], stdinIsTty: Boolean(process.stdin.isTTY), stdoutIsTty: Boolean(process.stdout.isTTY), ci: process.env.CI });

  // Never the server's data folder: one process owns it. A stand-alone run gets a database of its own.
  const url = process.env.DATABASE_URL?.trim();
  const database = await openDatabase(url ? { kind: "postgres", url, maxConnections: 2 } : { kind: "pglite" });
  try {
    // The registry's workflows, migrations and scripted models, as the server has them.
    const registry = getRegistry();
    if (!registry.entry("ReviewClaim")) {
      process.stderr.write("The expense review is not registered in parley.config.ts, so there is no claim to review here.\n");
      return EXIT.usage;
    }
    await migrateParley(database);
    const { db } = database;
    const [you] = await insertUsersIfAbsent(db, [{ email: `terminal-${Date.now()}@parley.local`, name: "You (terminal)", roles: ["assignee"] }]);
    const runtime = createRuntime({
      db,
      workflows: registry.workflows,
      resolveModel: (agent) => {
        const model = registry.scriptedModelFor(agent.name);
        if (!model) throw new Error(`No scripted model for ${agent.name}: the terminal demo runs on the registry's scripted models.`);
        return model;
      },
    });
    const task = await startReview(db, runtime, {
      claim: { title: "Taxi to the client", amountCents: 3_400, currency: "EUR", merchant: "Lisbon Taxis", incurredOn: "2026-11-04", description: "Taxi from the airport to the Acme office for the renewal meeting." },
      assigneeId: you!.id,
    });
    await runtime.drain();
    const io: TerminalIo = { stdout: process.stdout, stderr: process.stderr };
    return await askAtTerminal(runtime, { taskId: task.id, userId: you!.id, io, ...(answers ? { answers } : {}), ...(absent ? { nobodyThere: absent } : {}) });
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(EXIT.failure);
  },
);
