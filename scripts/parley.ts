// The `parley` command.
//   parley login [--url URL] [--token pt_…]    check and save a Parley server and a personal token
//   parley logout                              forget them
//   parley inbox [--json]                      my open questions on that server
//   parley answer <id> [--answers FILE.json] [--no-input] [--nothing | --decline [--note TEXT]]
//                                              answer one at the prompt, over the server's API
//   parley start [<workflow>] [--input FILE.json] [--answers FILE.json] [--no-input]
//                                              start a registered workflow on a database of its own
//                                              (in memory, or DATABASE_URL), its start form and its
//                                              questions to you asked here; without a name, list them
//   parley backup [--out FILE]                 a consistent copy of the embedded database (.data), taken
//                                              by its running server, or from the folder when none runs
//   parley restore FILE                        the embedded database made again from a backup, into an
//                                              empty data folder
// Only `start`, `backup` and `restore` open a database: the others load no database driver, no workflow, no Next.js.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { EXIT, nobodyThere, type TerminalIo } from "@/lib/runtime/terminal";

const USAGE = `usage: parley login [--url URL] [--token pt_…]
       parley logout
       parley inbox [--json]
       parley answer <question id> [--answers FILE.json] [--no-input] [--nothing]
       parley answer <question id> --decline [--note TEXT]
       parley start [<workflow>] [--input FILE.json] [--answers FILE.json] [--no-input]
       parley backup [--out FILE]
       parley restore FILE

login, inbox and answer talk to a running Parley: PARLEY_URL and PARLEY_TOKEN, when set, are used
instead of what \`parley login\` saved (in PARLEY_CONFIG, else ~/.config/parley/config.json).
answer takes a question's id, its beginning as \`parley inbox\` shows it, or the id of an API ask
put to you. With nobody at the terminal it leaves the question open (exit 3); --nothing ends it
unanswered on purpose (reason non-interactive); --decline says you cannot answer it (reason
declined), with --note telling whoever asked why, or who could answer instead.
start runs on a database of its own: with nobody at the terminal, its questions get nothing at once.
backup copies the embedded database of \`npm start\` (PARLEY_DATA_DIR, else .data) while its server
runs (the server takes the copy) or not; restore makes it again from that file, into an empty folder,
with no server on it. On PostgreSQL (DATABASE_URL) use pg_dump and pg_restore.
Exit codes: 0 answered/done, 1 failed, 2 refused, 3 nobody at the terminal, 64 usage.`;

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
        input: { type: "string" },
        nothing: { type: "boolean", default: false },
        decline: { type: "boolean", default: false },
        note: { type: "string" },
        "no-input": { type: "boolean", default: false },
        url: { type: "string" },
        token: { type: "string" },
        json: { type: "boolean", default: false },
        out: { type: "string" },
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
  const expected: Record<string, readonly number[]> = { login: [0], logout: [0], inbox: [0], answer: [1], start: [0, 1], backup: [0], restore: [1] };
  if (command === undefined || !Object.hasOwn(expected, command) || !expected[command]!.includes(rest.length)) {
    process.stderr.write(`${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.nothing && (command !== "answer" || values.answers !== undefined)) {
    process.stderr.write(`--nothing ends a question unanswered: give it to \`parley answer <id>\` alone, without --answers.\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.decline && (command !== "answer" || values.answers !== undefined || values.nothing)) {
    process.stderr.write(`--decline says you cannot answer a question: give it to \`parley answer <id>\` alone, without --answers or --nothing.\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.note !== undefined && !values.decline) {
    process.stderr.write(`--note goes with --decline: it is what whoever asked is told.\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.out !== undefined && command !== "backup") {
    process.stderr.write(`--out names the file \`parley backup\` writes.\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.input !== undefined && command !== "start") {
    process.stderr.write(`--input is a start form's answers: give it to \`parley start <workflow>\`.\n${USAGE}\n`);
    return EXIT.usage;
  }
  const answers = values.answers === undefined ? undefined : readAnswers(values.answers);
  if (typeof answers === "number") return answers;
  const input = values.input === undefined ? undefined : readAnswers(values.input);
  if (typeof input === "number") return input;
  const context = { io, env: process.env, stdinIsTty: Boolean(process.stdin.isTTY), stdoutIsTty: Boolean(process.stdout.isTTY) };

  switch (command) {
    case "login":
      return (await import("@/lib/terminal/commands")).loginCommand(context, { ...(values.url ? { url: values.url } : {}), ...(values.token ? { token: values.token } : {}) });
    case "logout":
      return (await import("@/lib/terminal/commands")).logoutCommand(context);
    case "backup":
      return (await import("@/lib/terminal/backup-commands")).backupCommand(
        { io, env: process.env, from: process.env.PARLEY_INVOKED_FROM ?? process.cwd() },
        values.out === undefined ? {} : { out: values.out },
      );
    case "restore":
      return (await import("@/lib/terminal/backup-commands")).restoreCommand({ io, env: process.env, from: process.env.PARLEY_INVOKED_FROM ?? process.cwd() }, rest[0]!);
    case "inbox":
      return (await import("@/lib/terminal/commands")).inboxCommand(context, { json: values.json });
    case "answer":
      return (await import("@/lib/terminal/commands")).answerCommand(context, rest[0]!, {
        ...(answers ? { answers } : {}),
        noInput: values["no-input"],
        nothing: values.nothing,
        ...(values.decline ? { decline: { note: values.note ?? null } } : {}),
      });
    default:
      return (await import("@/lib/terminal/start-workflow")).startCommand(
        { io, env: process.env, nobodyThere: nobodyThere({ noInput: values["no-input"], stdinIsTty: context.stdinIsTty, stdoutIsTty: context.stdoutIsTty, ci: process.env.CI }) },
        rest[0],
        { ...(input ? { input } : {}), ...(answers ? { answers } : {}) },
      );
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(EXIT.failure);
  },
);
