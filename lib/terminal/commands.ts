import { isCancel, password, text } from "@clack/prompts";
import { EXIT, answerAtTerminal, nobodyThere, type TerminalIo } from "@/lib/runtime/terminal";
import { formatUtc, readClock } from "@/lib/sla-clock";
import { isUuid } from "@/lib/ids";
import { declineAt, httpQuestionSource, printable } from "./http-question-source";
import { createPersonApiClient, type PersonApiClient, PersonApiError, type QuestionDetailView, type QuestionSummaryView } from "./person-api-client";
import { couldBeginAnId, matchPrefix, shortIds } from "./short-ids";
import {
  ConfigFileError,
  configPath,
  type Environment,
  normaliseServerUrl,
  readSavedConfig,
  removeConfig,
  resolveConnection,
  saveConfig,
  type TerminalConfig,
} from "./terminal-config";

/** What a `parley` command runs with: where it writes, its environment, whether someone may be at the terminal. */
export interface CommandContext {
  io: TerminalIo;
  env: Environment;
  stdinIsTty: boolean;
  stdoutIsTty: boolean;
  /** Replaces `fetch` (tests). */
  fetch?: typeof fetch;
}

/** Why nobody is at this terminal for a command that was not told `--no-input`. */
function absence(context: CommandContext, noInput = false): string | undefined {
  return nobodyThere({ noInput, stdinIsTty: context.stdinIsTty, stdoutIsTty: context.stdoutIsTty, ci: context.env.CI });
}

/** The client for the saved (or environment's) server and token; writes why not and returns undefined when there is none. */
function clientFor(context: CommandContext): PersonApiClient | undefined {
  let resolved: ReturnType<typeof resolveConnection>;
  try {
    resolved = resolveConnection(context.env);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    resolved = { missing: error.message };
  }
  if ("missing" in resolved) {
    context.io.stderr.write(`${resolved.missing}\n`);
    return undefined;
  }
  return createPersonApiClient(resolved.connection, context.fetch ? { fetch: context.fetch } : {});
}

/** Runs a command that talks to the server: a refusal of entry or a server away is said plainly, never as a stack. */
async function talking(context: CommandContext, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof PersonApiError)) throw error;
    const advice = error.status === 401 ? " Run `parley login` again with a live personal token (make one on your profile)." : "";
    context.io.stderr.write(`${printable(error.message)}${advice}\n`);
    return EXIT.failure;
  }
}

/** "Sam Assignee (sam@parley.test)". */
function who(me: { name: string; email: string }): string {
  return printable(`${me.name} (${me.email})`);
}

/**
 * `parley login [--url URL] [--token pt_…]`: checks the server and the token with `GET /api/v1/me`
 * and saves them (0600). What is not given (flag, else PARLEY_URL / PARLEY_TOKEN) is asked for at a
 * terminal; with nobody there it is a usage error, never a guess.
 */
export async function loginCommand(context: CommandContext, options: { url?: string; token?: string }): Promise<number> {
  const { io, env } = context;
  const file = configPath(env);
  let saved: Partial<TerminalConfig> | undefined;
  try {
    saved = readSavedConfig(file);
  } catch (error) {
    // A broken file is what logging in again replaces.
    if (!(error instanceof ConfigFileError)) throw error;
  }
  const absent = absence(context);
  let url = options.url ?? env.PARLEY_URL?.trim();
  if (!url) {
    if (absent) {
      io.stderr.write(`Nobody is at this terminal (${absent}): give --url (or PARLEY_URL).\n`);
      return EXIT.usage;
    }
    const typed = await text({
      message: "Parley's address",
      placeholder: saved?.url ?? "http://localhost:3000",
      defaultValue: saved?.url ?? "http://localhost:3000",
      validate: (value) => (!value || normaliseServerUrl(value) ? undefined : "An http:// or https:// address, like http://localhost:3000."),
    });
    if (isCancel(typed)) return EXIT.failure;
    url = typed || saved?.url || "http://localhost:3000";
  }
  const server = normaliseServerUrl(url);
  if (!server) {
    io.stderr.write(`${JSON.stringify(url)} is not an http:// or https:// address.\n`);
    return EXIT.usage;
  }
  let token = options.token ?? env.PARLEY_TOKEN?.trim();
  if (!token) {
    if (absent) {
      io.stderr.write(`Nobody is at this terminal (${absent}): give --token (or PARLEY_TOKEN).\n`);
      return EXIT.usage;
    }
    const typed = await password({ message: `A personal token (make one on your profile: ${server}/profile)`, validate: (value) => (value?.trim() ? undefined : "Paste the token (pt_…).") });
    if (isCancel(typed)) return EXIT.failure;
    token = typed.trim();
  }
  if (token.startsWith("pk_")) {
    io.stderr.write("That is an agent key (pk_…), which asks people questions; `parley login` takes a personal token (pt_…), which answers yours. Make one on your profile.\n");
    return EXIT.usage;
  }
  const connection = { url: server, token };
  return talking(context, async () => {
    const me = await createPersonApiClient(connection, context.fetch ? { fetch: context.fetch } : {}).me();
    saveConfig(file, connection);
    io.stdout.write(`Logged in to ${server} as ${who(me)}. Saved to ${file}.\n`);
    if (env.PARLEY_URL?.trim() || env.PARLEY_TOKEN?.trim()) io.stderr.write("PARLEY_URL / PARLEY_TOKEN are set in this shell: they are used instead of what was saved.\n");
    return EXIT.ok;
  });
}

/** `parley logout`: forgets the saved server and token (the token itself stays live until revoked on the profile). */
export function logoutCommand(context: CommandContext): number {
  const file = configPath(context.env);
  const removed = removeConfig(file);
  context.io.stdout.write(
    removed
      ? `Logged out: removed ${file}. The token still works until you revoke it on your profile.\n`
      : `Not logged in: there is no ${file}.\n`,
  );
  if (context.env.PARLEY_TOKEN?.trim()) context.io.stderr.write("PARLEY_TOKEN is still set in this shell, and is used while it is.\n");
  return EXIT.ok;
}

/** "Release bot (api)", "Auditor (agent)". */
function askerLabel(question: QuestionSummaryView): string {
  return `${question.asked_by.name} (${question.asked_by.kind === "api" ? "API" : question.asked_by.kind})`;
}

/** `parley inbox [--json]`: the person's open questions, soonest due first — short id, due, who asks, title (`--json`: each whole). */
export async function inboxCommand(context: CommandContext, options: { json?: boolean } = {}): Promise<number> {
  const client = clientFor(context);
  if (!client) return EXIT.failure;
  return talking(context, async () => {
    const questions = await client.questions();
    if (options.json) {
      context.io.stdout.write(`${JSON.stringify(questions, null, 2)}\n`);
      return EXIT.ok;
    }
    if (questions.length === 0) {
      context.io.stdout.write("No questions are waiting for you.\n");
      return EXIT.ok;
    }
    const now = new Date();
    const short = shortIds(questions.map((question) => question.id));
    const rows = questions.map((question) => [
      short.get(question.id)!,
      question.due_at ? `${readClock(new Date(question.opened_at), new Date(question.due_at), now).label}` : "no deadline",
      printable(askerLabel(question)),
      printable(question.title).replace(/\n/g, " "),
    ]);
    const header = ["ID", "DUE", "ASKED BY", "QUESTION"];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ");
    context.io.stdout.write(`${[line(header), ...rows.map(line)].join("\n")}\n`);
    context.io.stderr.write(`${questions.length} open question${questions.length === 1 ? "" : "s"}: \`parley answer <ID>\` answers one here.\n`);
    return EXIT.ok;
  });
}

/** Why a question takes no answer, in words: who answered and when, or why it closed. */
function closedWords(question: QuestionDetailView): string {
  if (question.status === "answered") {
    return `This question was already answered${question.answered_by?.name ? ` by ${printable(question.answered_by.name)}` : ""}${question.answered_at ? ` at ${formatUtc(new Date(question.answered_at))}` : ""}.`;
  }
  if (question.reason === "declined") {
    return `This question was declined${question.declined_by?.name ? ` by ${printable(question.declined_by.name)}` : ""}${question.note ? `, noting: ${printable(question.note)}` : "."}`;
  }
  return `This question closed without an answer${question.reason ? ` (reason: ${question.reason})` : ""}.`;
}

/**
 * The question a typed id names: a whole id is asked for as it is (the server also takes the id of
 * an API ask put to this person, and answers with its question); anything shorter is the beginning
 * of one of the person's open questions' ids, as `parley inbox` shows them. Writes why not and
 * returns the exit code when it names none, or several.
 */
async function questionNamed(context: CommandContext, client: PersonApiClient, typed: string): Promise<QuestionDetailView | number> {
  const id = typed.trim();
  if (isUuid(id)) return client.question(id);
  if (!couldBeginAnId(id)) {
    context.io.stderr.write(`${JSON.stringify(printable(typed))} is not a question id: \`parley inbox\` lists your open questions with theirs.\n`);
    return EXIT.usage;
  }
  const open = (await client.questions()).map((question) => question.id);
  const match = matchPrefix(id, open);
  if (match.status === "one") return client.question(match.id);
  if (match.status === "none") {
    context.io.stderr.write(`None of your open questions has an id beginning ${id}: \`parley inbox\` lists them (a question already answered or closed is named by its whole id).\n`);
    return EXIT.failure;
  }
  const shown = shortIds(open);
  const named = match.ids.slice(0, 10).map((match) => shown.get(match) ?? match);
  context.io.stderr.write(
    `${id} begins the ids of ${match.ids.length} of your open questions: ${named.join(", ")}${match.ids.length > named.length ? ", …" : ""}. Give more of the id.\n`,
  );
  return EXIT.usage;
}

/**
 * `parley answer <id> [--answers FILE.json] [--no-input] [--nothing | --decline [--note TEXT]]`: asks the question's fields at
 * the prompt and sends the typed text to the server's answer route — refusals on their fields, the
 * attempts counted; an answers file is sent once. The id is a whole question id, its beginning as
 * `parley inbox` shows it, or the id of an API ask put to the person. With nobody at the terminal the
 * question stays open (it is in the person's inbox too) and the command exits 3; `--nothing` ends
 * it unanswered on purpose (reason non-interactive); `--decline` says the person cannot answer it
 * (reason declined, with `--note` for whoever asked).
 */
export async function answerCommand(
  context: CommandContext,
  id: string,
  options: { answers?: Record<string, unknown>; noInput: boolean; nothing?: boolean; decline?: { note: string | null } },
): Promise<number> {
  const client = clientFor(context);
  if (!client) return EXIT.failure;
  return talking(context, async () => {
    const question = await questionNamed(context, client, id);
    if (typeof question === "number") return question;
    if (question.status !== "open") {
      context.io.stderr.write(`${closedWords(question)}\n`);
      return EXIT.failure;
    }
    if (options.decline) {
      const declined = await declineAt(client, question.id, options.decline.note);
      if (!declined.ok) {
        context.io.stderr.write(`${declined.message}\n`);
        return EXIT.failure;
      }
      context.io.stdout.write(`Declined: whoever asked was told you cannot answer it${declined.note ? ", with your note" : ""} (reason: declined).\n`);
      return EXIT.ok;
    }
    const source = httpQuestionSource(client, question);
    if (options.nothing) {
      const closed = await source.giveNothing();
      if (!closed.ok) {
        context.io.stderr.write(`${closed.message}\n`);
        return EXIT.failure;
      }
      context.io.stdout.write(`Ended without an answer: whoever asked was told nobody answered (reason: non-interactive).\n`);
      return EXIT.ok;
    }
    const absent = absence(context, options.noInput);
    const named = printable(id.trim());
    return answerAtTerminal(source, {
      io: context.io,
      ...(options.answers ? { answers: options.answers } : {}),
      ...(absent ? { nobodyThere: absent } : {}),
      leaveOpen: `Answer it at a terminal (\`parley answer ${named}\`), in your inbox, or from a file (\`--answers FILE.json\`); \`parley answer ${named} --nothing\` ends it unanswered on purpose.`,
    });
  });
}
