import { isCancel, log, text } from "@clack/prompts";
import { type QuestionField, formatAnswerText, parseTextAnswer } from "@/lib/questions";
import type { Runtime } from "./create-runtime";

/** How the `parley` command ends. Never 0 unless the person's answer was taken. */
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

/** What the terminal session needs: the task's question, who is here, and how they answer. */
export interface TerminalSession {
  taskId: string;
  userId: string;
  io: TerminalIo;
  /** Answers given on purpose (`--answers FILE.json`), by field path; judged exactly like typed ones. */
  answers?: Record<string, unknown>;
  /** Why nobody is at this terminal (see {@link nobodyThere}); the flow then gets nothing. */
  nobodyThere?: string;
}

/**
 * Puts the person's open question on a task to whoever is at the terminal, through the same
 * submission the inbox uses; prints the typed value and returns the exit code.
 */
export async function askAtTerminal(runtime: Runtime, session: TerminalSession): Promise<number> {
  const { io } = session;
  const question = (await runtime.questionsFor(session.userId)).find((candidate) => candidate.taskId === session.taskId);
  if (!question) {
    io.stderr.write("There is no question waiting for an answer here.\n");
    return EXIT.failure;
  }
  const fields = question.spec.fields;

  async function giveNothing(why: string): Promise<number> {
    await runtime.closeWithNothing({ questionId: question!.id, reason: "non-interactive", by: session.userId });
    await runtime.drain();
    io.stderr.write(`Nobody is at this terminal (${why}): nothing was asked, and the flow got no answer (reason: non-interactive).\n`);
    return EXIT.nothing;
  }

  if (session.answers) {
    const typed: Record<string, string> = {};
    for (const field of fields) {
      const value = session.answers[field.path];
      if (value !== undefined) typed[field.path] = typeof value === "string" ? value : formatAnswerText(field, value);
    }
    const result = await runtime.submitAnswer({ questionId: question.id, by: session.userId, answer: { text: typed } });
    if (result.status === "answered") {
      await runtime.drain();
      io.stdout.write(`${JSON.stringify(result.value, null, 2)}\n`);
      return EXIT.ok;
    }
    if (result.status === "refused" || result.status === "closed") {
      for (const refusal of result.refusals) io.stderr.write(`${refusal.field ?? refusal.path ?? "answer"}: ${refusal.message}\n`);
      io.stderr.write(result.status === "refused" ? `The answers file was refused (next: ${result.attempt}).\n` : "The answers file was refused; the attempts ran out.\n");
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
    if (question.title) log.step(question.title);
    for (;;) {
      for (const index of toAsk) {
        const field = fields[index]!;
        typed[field.path] = await ask(field, index, fields.length, refusals[field.path]);
      }
      const result = await runtime.submitAnswer({ questionId: question.id, by: session.userId, answer: { text: typed } });
      if (result.status === "answered") {
        await runtime.drain();
        log.success("Thank you: your answer was taken.");
        io.stdout.write(`${JSON.stringify(result.value, null, 2)}\n`);
        return EXIT.ok;
      }
      if (result.status !== "refused" && result.status !== "closed") {
        io.stderr.write(`${result.message}\n`);
        return EXIT.failure;
      }
      const messages = result.refusals.map((refusal) => `${refusal.field ? fields.find((field) => field.path === refusal.field)?.question ?? refusal.field : "Your answer"}: ${refusal.message}`);
      if (result.status === "closed") {
        log.error([...messages, "That was the last attempt: the questionnaire has ended without an answer (reason: refused)."].join("\n"));
        await runtime.drain();
        return EXIT.refused;
      }
      log.warn([...messages, `Please try again — ${result.attempt}.`].join("\n"));
      refusals = Object.fromEntries(Object.entries(result.fieldErrors).map(([path, list]) => [path, list.join(" ")]));
      const refused = new Set(result.refusals.flatMap((refusal) => (refusal.field ? [refusal.field] : [])));
      // A refusal tied to no field re-asks everything.
      toAsk = fields.flatMap((field, index) => (refused.size === 0 || refused.has(field.path) ? [index] : []));
    }
  } catch (error) {
    if (error instanceof EndOfInput) return giveNothing("end of input");
    throw error;
  }
}
