// The `parley` command.
//   parley login [--url URL] [--token pt_…]    check and save a Parley server and a personal token
//   parley logout                              forget them
//   parley inbox [--json]                      my open questions on that server
//   parley answer <id> [--answers FILE.json] [--no-input]
//                                              answer one at the prompt, over the server's API
//   parley reimburse [--answers FILE.json] [--no-input]
//                                              run the claim review on a database of its own (in
//                                              memory, or DATABASE_URL) up to the Reimbursement
//                                              questionnaire, and ask it here
// Only `reimburse` opens a database: the others load no database driver, no workflow, no Next.js.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { EXIT, nobodyThere, type TerminalIo } from "@/lib/runtime/terminal";

const USAGE = `usage: parley login [--url URL] [--token pt_…]
       parley logout
       parley inbox [--json]
       parley answer <question id> [--answers FILE.json] [--no-input]
       parley reimburse [--answers FILE.json] [--no-input]

login, inbox and answer talk to a running Parley: PARLEY_URL and PARLEY_TOKEN, when set, are used
instead of what \`parley login\` saved (in PARLEY_CONFIG, else ~/.config/parley/config.json).
Exit codes: 0 answered/done, 1 failed, 2 refused, 3 nobody at the terminal (nothing), 64 usage.`;

const io: TerminalIo = { stdout: process.stdout, stderr: process.stderr };

/** A file named on the command line, read from where `parley` was run (bin/parley.mjs runs this from the project root). */
function readAnswers(file: string): Record<string, unknown> | number {
  const where = path.resolve(process.env.PARLEY_INVOKED_FROM ?? process.cwd(), file);
  try {
    const answers = JSON.parse(readFileSync(where, "utf8")) as unknown;
    if (typeof answers !== "object" || answers === null || Array.isArray(answers)) throw new Error("it is not a JSON object of answers by field");
    return answers as Record<string, unknown>;
  } catch (error) {
    process.stderr.write(`Could not read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        answers: { type: "string" },
        "no-input": { type: "boolean", default: false },
        url: { type: "string" },
        token: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: true,
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const expected: Record<string, number> = { login: 0, logout: 0, inbox: 0, answer: 1, reimburse: 0 };
  if (command === undefined || !(command in expected) || rest.length !== expected[command]) {
    process.stderr.write(`${USAGE}\n`);
    return EXIT.usage;
  }
  const answers = values.answers === undefined ? undefined : readAnswers(values.answers);
  if (typeof answers === "number") return answers;
  const context = { io, env: process.env, stdinIsTty: Boolean(process.stdin.isTTY), stdoutIsTty: Boolean(process.stdout.isTTY) };

  switch (command) {
    case "login":
      return (await import("@/lib/terminal/commands")).loginCommand(context, { ...(values.url ? { url: values.url } : {}), ...(values.token ? { token: values.token } : {}) });
    case "logout":
      return (await import("@/lib/terminal/commands")).logoutCommand(context);
    case "inbox":
      return (await import("@/lib/terminal/commands")).inboxCommand(context, { json: values.json });
    case "answer":
      return (await import("@/lib/terminal/commands")).answerCommand(context, rest[0]!, { ...(answers ? { answers } : {}), noInput: values["no-input"] });
    default:
      return reimburse(answers, values["no-input"]);
  }
}

/** `parley reimburse`: the claim review on a database of its own, its questionnaire asked here. */
async function reimburse(answers: Record<string, unknown> | undefined, noInput: boolean): Promise<number> {
  const absent = nobodyThere({ noInput, stdinIsTty: Boolean(process.stdin.isTTY), stdoutIsTty: Boolean(process.stdout.isTTY), ci: process.env.CI });
  const [{ insertUsersIfAbsent }, { openDatabase }, { startReview }, { migrateParley }, { getRegistry }, { createRuntime }, { askAtTerminal }] = await Promise.all([
    import("@/db/queries/users"),
    import("@/db/client"),
    import("@/examples/expense-review/start-review"),
    import("@/lib/database"),
    import("@/lib/registry/configured"),
    import("@/lib/runtime"),
    import("@/lib/runtime/terminal"),
  ]);
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
