import type { QuestionSpec } from "@/lib/questions/question-spec";
import type { QuestionSource, TerminalVerdict } from "@/lib/runtime/terminal";
import { type PersonApiClient, PersonApiError, type QuestionDetailView } from "./person-api-client";

/**
 * Control characters (but the newline) and the bidirectional overrides and isolates: text from a
 * server — an agent's question, an API caller's title — is shown at a terminal, where an escape
 * sequence could move the cursor, rewrite what was shown or change the window's title.
 */
const UNPRINTABLE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** The text with what a terminal would act on instead of showing replaced by a space. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, " ");
}

/** A value with {@link printable} applied to every string in it. */
function printableDeep<T>(value: T): T {
  if (typeof value === "string") return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableDeep) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, printableDeep(child)])) as T;
  return value;
}

function messagesByField(value: unknown): Record<string, string[]> {
  const fields: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  if (value && typeof value === "object") {
    for (const [path, messages] of Object.entries(value)) if (Array.isArray(messages)) fields[path] = messages.filter((message): message is string => typeof message === "string").map(printable);
  }
  return fields;
}

function messages(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((message): message is string => typeof message === "string").map(printable) : [];
}

/**
 * A question on a Parley server as a {@link QuestionSource}: the terminal asks its fields and the
 * server's answer route judges the typed text (the asker's schema, the attempts) — the same road as
 * the inbox's form and the local terminal.
 */
export function httpQuestionSource(client: PersonApiClient, question: QuestionDetailView): QuestionSource {
  const spec = printableDeep(question.spec) as unknown as QuestionSpec;
  const title = printable(question.title);
  // An agent's ask is its one question: its headline would say the same thing twice.
  const shownTitle = spec.fields.length === 1 && spec.fields[0]!.question === title ? null : title;
  const asker = question.asked_by.kind === "agent" ? `The agent ${question.asked_by.name}` : question.asked_by.kind === "api" ? `${question.asked_by.name}, over the API,` : question.asked_by.name;
  const intro = [
    // An API ask's subject is its own title, shown just above.
    printable(`${asker} asks${question.subject && question.subject.title !== question.title ? ` about ${question.subject.title}` : ""}.`),
    ...(question.context?.facts ?? []).map((fact) => printable(`${fact.label}: ${fact.value || "none given"}`)),
    ...(question.due_at ? [`Due ${question.due_at.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC")}.`] : []),
  ];
  return {
    title: shownTitle,
    intro,
    spec,
    async submit(typed): Promise<TerminalVerdict> {
      const response = await client.answer(question.id, typed);
      if (response.ok) return { status: "answered", value: response.value };
      const { error } = response;
      const refusals = { fieldErrors: messagesByField(error.fields), formErrors: messages(error.form), moreChecksAfterThese: error.more_checks_after_these === true };
      if (error.code === "answer_refused") {
        return { status: "refused", ...refusals, attempt: typeof error.attempt === "string" ? printable(error.attempt) : "try again", attemptsLeft: typeof error.attempts_left === "number" ? error.attempts_left : 0 };
      }
      if (error.code === "attempts_exhausted") return { status: "closed", ...refusals };
      return { status: "unavailable", message: printable(error.message) };
    },
    async giveNothing() {
      try {
        await client.nothing(question.id);
        return { ok: true };
      } catch (error) {
        return refusalOf(error);
      }
    },
  };
}

/**
 * The server's refusal of a closing as the terminal says it (a question no longer open, another
 * member holding it, a note too long); entry refused or the server away is the command's to report,
 * so it is thrown on.
 */
function refusalOf(error: unknown): { ok: false; message: string } {
  if (error instanceof PersonApiError && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 429) {
    return { ok: false, message: printable(error.message) };
  }
  throw error;
}

/** Declines a question over the person's API, with the note for whoever asked (null for none). */
export async function declineAt(client: PersonApiClient, questionId: string, note: string | null): Promise<{ ok: true; note: string | null } | { ok: false; message: string }> {
  try {
    const closed = await client.decline(questionId, note);
    return { ok: true, note: closed.note };
  } catch (error) {
    return refusalOf(error);
  }
}
