// A little over ~250 lines: the prompting loop, and the local runtime as one of its question sources.
import { isCancel, log, text } from "@clack/prompts";
import type { QuestionRow } from "@/db/queries/runtime-questions";
import { formatAnswerText, LAST_ATTEMPT_WARNING, MORE_CHECKS_MESSAGE, parseTextAnswer, type QuestionField, type QuestionSpec } from "@/lib/questions";
import type { Runtime } from "./create-runtime";

/** How the `parley` command ends. Never 0 unless what the person asked for was done: their answer taken, or a question ended on purpose. */
export const EXIT = { ok: 0, failure: 1, refused: 2, nothing: 3, usage: 64 } as const;

/** Where the terminal writes: the typed value on stdout, everything about nobody being there on stderr. */
export interface TerminalIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

/**
 * Why nobody is at this terminal, or undefined when someone may be: `--no-input`, stdin or stdout
 * not a TTY, or `CI` set. Never "take the defaults".
 */
export function nobodyThere(context: { noInput: boolean; stdinIsTty: boolean; stdoutIsTty: boolean; ci: string | undefined }): string | undefined {
  if (context.noInput) return "--no-input was given";
  if (context.ci !== undefined && context.ci !== "" && context.ci !== "0" && context.ci.toLowerCase() !== "false") return "CI is set";
  if (!context.stdinIsTty) return "stdin is not a terminal";
  if (!context.stdoutIsTty) return "stdout is not a terminal";
  return undefined;
}

/** The prompt for one field: "Question 2 of 4: …", its options numbered, (y/n), [default] or a dash for that, comma lists. */
export function promptFor(field: QuestionField, index: number, total: number): string {
  const lines = [`Question ${index + 1} of ${total}: ${field.question}`];
  for (const [number, option] of (field.options ?? []).entries()) {
    lines.push(`  ${number + 1}. ${option.label}${option.description ? ` — ${option.description}` : ""}`);
  }
  const notes: string[] = [];
  if (field.kind === "enum") notes.push("a number or the word");
  if (field.kind === "text" && (field.options ?? []).length > 0) notes.push("a number or the word, or your own answer");
  if (field.kind === "multi-choice") notes.push("numbers or words, separated by commas");
  if (field.kind === "boolean") notes.push("(y/n)");
  if (field.kind === "list") notes.push("separate them with commas");
  if (field.kind === "date") notes.push("YYYY-MM-DD");
  if (field.hasDefault) notes.push(`[${formatAnswerText(field, field.default)}] or a dash for that`);
  if (field.optional) notes.push("Enter to skip");
  if (field.nullable) notes.push("none for no value");
  if (notes.length > 0) lines.push(`  (${notes.join("; ")})`);
  return lines.join("\n");
}

/** Signals the end of input (Ctrl-C, Ctrl-D): nobody is answering any more. */
class EndOfInput extends Error {}

async function ask(field: QuestionField, index: number, total: number, refusal: string | undefined): Promise<string> {
  const answer = await text({
    message: promptFor(field, index, total),
    ...(refusal ? { placeholder: refusal } : {}),
    // The shared parser says at once when text cannot be read at all; the schema judges the rest.
    validate: (value) => {
      const parsed = parseTextAnswer(field, value ?? "");
      return parsed.ok ? undefined : parsed.message;
    },
  });
  if (isCancel(answer)) throw new EndOfInput();
  return answer ?? "";
}

/**
 * What the question's judge said of the text typed for it, as the terminal needs it — whichever
 * source judged it (the runtime here, or a Parley server over HTTP).
 */
export type TerminalVerdict =
  | { status: "answered"; value: unknown }
  | {
      status: "refused";
      /** The schema's words, by field path. */
      fieldErrors: Readonly<Record<string, readonly string[]>>;
      /** What was said of the answer as a whole. */
      formErrors: readonly string[];
      /** Checks across several answers wait until every field passes. */
      moreChecksAfterThese: boolean;
      /** The attempt about to be made: "attempt 2 of 3". */
      attempt: string;
      attemptsLeft: number;
    }
  /** Refused, and that was the last attempt: the question closed without an answer (reason refused). */
  | { status: "closed"; fieldErrors: Readonly<Record<string, readonly string[]>>; formErrors: readonly string[]; moreChecksAfterThese: boolean }
  /** Not judged: no such question, someone else answered it, it closed — the message says which. */
  | { status: "unavailable"; message: string };

/**
 * One open question and where its answer goes: the prompting loop ({@link answerAtTerminal}) asks
 * its fields and hands the typed text to `submit`, whoever judges it — the local runtime
 * ({@link runtimeQuestionSource}) or a Parley server's API (lib/terminal).
 */
export interface QuestionSource {
  /** Shown before the first question (the questionnaire's title), if any. */
  readonly title: string | null;
  /** More lines shown before the first question: who asks, what it is about. */
  readonly intro?: readonly string[];
  /** The fields to ask, in order. */
  readonly spec: QuestionSpec;
  /** Sends each field's text as typed (by field path) to be judged. */
  submit(typed: Readonly<Record<string, string>>): Promise<TerminalVerdict>;
  /** Closes the question with nothing, reason non-interactive; the message when it could not. */
  giveNothing(): Promise<{ ok: true } | { ok: false; message: string }>;
}

/** How the terminal is to answer: where it writes, an answers file, or why nobody is there. */
export interface TerminalAnswering {
  io: TerminalIo;
  /** Answers given on purpose (`--answers FILE.json`), by field path; judged exactly like typed ones. */
  answers?: Record<string, unknown>;
  /** Why nobody is at this terminal (see {@link nobodyThere}); the asker then gets nothing, unless `leaveOpen` is given. */
  nobodyThere?: string;
  /**
   * With nobody there (or at the end of input), leave the question open rather than give the asker
   * nothing, and say this after why: what to do instead. A person's question on a server has other
   * doors (their inbox); nothing at once is the answer only for a flow driven from this command line.
   */
  leaveOpen?: string;
}

/** "How should we pay you back?: Use …" — each refusal beside the question it is about. */
function refusalLines(spec: QuestionSpec, verdict: { fieldErrors: Readonly<Record<string, readonly string[]>>; formErrors: readonly string[] }, name: (field: QuestionField | undefined, path: string) => string): string[] {
  const lines: string[] = [];
  for (const [path, messages] of Object.entries(verdict.fieldErrors)) {
    const field = spec.fields.find((candidate) => candidate.path === path);
    for (const message of messages) lines.push(`${name(field, path)}: ${message}`);
  }
  for (const message of verdict.formErrors) lines.push(`${name(undefined, "answer")}: ${message}`);
  return lines;
}

/**
 * Puts one question to whoever is at the terminal, one prompt per field, and sends what they typed
 * to its source: a refusal is shown on its field in the schema's words with the attempt about to be
 * made, and only the refused fields are asked again. With nobody there (or at the end of input) the
 * question is closed with nothing (non-interactive) or, told so, left open — never answered with defaults. An answers file
 * is sent as it is, once. Returns the exit code; the typed value goes to stdout.
 */
export async function answerAtTerminal(source: QuestionSource, session: TerminalAnswering): Promise<number> {
  const { io } = session;
  const fields = source.spec.fields;

  async function giveNothing(why: string): Promise<number> {
    if (session.leaveOpen !== undefined) {
      io.stderr.write(`Nobody is at this terminal (${why}): no answer was given, and the question is still open. ${session.leaveOpen}\n`);
      return EXIT.nothing;
    }
    const closed = await source.giveNothing();
    if (!closed.ok) {
      io.stderr.write(`${closed.message}\n`);
      return EXIT.failure;
    }
    io.stderr.write(`Nobody is at this terminal (${why}): nothing was asked, and whoever asked got no answer (reason: non-interactive).\n`);
    return EXIT.nothing;
  }

  if (session.answers) {
    const unknown = Object.keys(session.answers).filter((path) => !fields.some((field) => field.path === path));
    if (unknown.length > 0) {
      io.stderr.write(`The answers file names ${unknown.map((path) => `“${path}”`).join(", ")}, which this question does not ask: its fields are ${fields.map((field) => field.path).join(", ")}. Nothing was sent.\n`);
      return EXIT.usage;
    }
    const typed: Record<string, string> = {};
    for (const field of fields) {
      const value = session.answers[field.path];
      if (value !== undefined) typed[field.path] = typeof value === "string" ? value : formatAnswerText(field, value);
    }
    const result = await source.submit(typed);
    if (result.status === "answered") {
      io.stdout.write(`${JSON.stringify(result.value, null, 2)}\n`);
      return EXIT.ok;
    }
    if (result.status === "refused" || result.status === "closed") {
      for (const line of refusalLines(source.spec, result, (_field, path) => path)) io.stderr.write(`${line}\n`);
      io.stderr.write(
        result.status === "refused"
          ? `The answers file was refused (next: ${result.attempt}${result.attemptsLeft === 1 ? ", the last" : ""}).\n`
          : "The answers file was refused; the attempts ran out.\n",
      );
      return EXIT.refused;
    }
    io.stderr.write(`${result.message}\n`);
    return EXIT.failure;
  }

  if (session.nobodyThere) return giveNothing(session.nobodyThere);

  const typed: Record<string, string> = {};
  let toAsk = fields.map((_, index) => index);
  let refusals: Record<string, string> = {};
  try {
    if (source.title) log.step(source.title);
    if (source.intro && source.intro.length > 0) log.info(source.intro.join("\n"));
    for (;;) {
      for (const index of toAsk) {
        const field = fields[index]!;
        typed[field.path] = await ask(field, index, fields.length, refusals[field.path]);
      }
      const result = await source.submit(typed);
      if (result.status === "answered") {
        log.success("Thank you: your answer was taken.");
        io.stdout.write(`${JSON.stringify(result.value, null, 2)}\n`);
        return EXIT.ok;
      }
      if (result.status === "unavailable") {
        io.stderr.write(`${result.message}\n`);
        return EXIT.failure;
      }
      const messages = refusalLines(source.spec, result, (field, path) => (field ? field.question : path === "answer" ? "Your answer" : path));
      if (result.moreChecksAfterThese) messages.push(MORE_CHECKS_MESSAGE);
      if (result.status === "closed") {
        log.error([...messages, "That was the last attempt: the questionnaire has ended without an answer (reason: refused)."].join("\n"));
        return EXIT.refused;
      }
      // Said before it happens: the next refusal ends the question for good.
      const last = result.attemptsLeft === 1 ? ` ${LAST_ATTEMPT_WARNING}` : "";
      log.warn([...messages, `Please try again — ${result.attempt}.${last}`].join("\n"));
      refusals = Object.fromEntries(Object.entries(result.fieldErrors).map(([path, list]) => [path, list.join(" ")]));
      const refused = new Set(Object.keys(result.fieldErrors).filter((path) => fields.some((field) => field.path === path)));
      // A refusal tied to no field re-asks everything.
      toAsk = fields.flatMap((field, index) => (refused.size === 0 || refused.has(field.path) ? [index] : []));
    }
  } catch (error) {
    if (error instanceof EndOfInput) return giveNothing("end of input");
    throw error;
  }
}

/**
 * A question of the local runtime as a {@link QuestionSource}: answered through the same submission
 * the inbox uses, the runtime's jobs drained after each change so the flow carries on here.
 */
export function runtimeQuestionSource(runtime: Runtime, question: Pick<QuestionRow, "id" | "title" | "spec">, userId: string): QuestionSource {
  return {
    title: question.title,
    spec: question.spec,
    async submit(typed) {
      const result = await runtime.submitAnswer({ questionId: question.id, by: userId, answer: { text: typed } });
      switch (result.status) {
        case "answered":
          await runtime.drain();
          return { status: "answered", value: result.value };
        case "refused":
          return { status: "refused", fieldErrors: result.fieldErrors, formErrors: result.formErrors, moreChecksAfterThese: result.moreChecksAfterThese, attempt: result.attempt, attemptsLeft: result.attemptsLeft };
        case "closed":
          await runtime.drain();
          return { status: "closed", fieldErrors: result.fieldErrors, formErrors: result.formErrors, moreChecksAfterThese: result.moreChecksAfterThese };
        default:
          return { status: "unavailable", message: result.message };
      }
    },
    async giveNothing() {
      const closed = await runtime.closeWithNothing({ questionId: question.id, reason: "non-interactive", by: userId });
      await runtime.drain();
      return closed.status === "closed" ? { ok: true } : { ok: false, message: closed.message };
    },
  };
}

/** What the terminal session needs: the task's question, who is here, and how they answer. */
export interface TerminalSession extends TerminalAnswering {
  taskId: string;
  userId: string;
}

/**
 * Puts the person's open question on a task to whoever is at the terminal, through the same
 * submission the inbox uses; prints the typed value and returns the exit code.
 */
export async function askAtTerminal(runtime: Runtime, session: TerminalSession): Promise<number> {
  const question = (await runtime.questionsFor(session.userId)).find((candidate) => candidate.taskId === session.taskId);
  if (!question) {
    session.io.stderr.write("There is no question waiting for an answer here.\n");
    return EXIT.failure;
  }
  return answerAtTerminal(runtimeQuestionSource(runtime, question, session.userId), session);
}
