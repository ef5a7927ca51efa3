import type postgres from "postgres";
import type { QuestionSpec } from "@/lib/questions/question-spec";
import { callAction, HttpClient } from "./http-client";
import type { Random } from "./random";

/** How one submission ended, as the client saw it. */
export type SubmissionOutcome =
  /** The server said the answer was taken. */
  | "answered"
  /** Someone else's answer was taken first (or the question closed): this one was not. */
  | "conflict"
  /** The request got no answer: the server died (or the connection broke) with it in hand. */
  | "unknown"
  /** Nobody was listening: the request never reached a server. */
  | "unsent"
  /** The server answered that it failed (`internal`): a 5xx-class answer, allowed only while a fault lasts. */
  | "failed"
  /** Anything else: a refusal of a well-formed answer, an error — each one a failure. */
  | "unexpected";

/** One answer a client sent, with a token of its own in the text so the database can be searched for it. */
export interface Submission {
  questionId: string;
  token: string;
  outcome: SubmissionOutcome;
  /** When it was sent and when its outcome was known (`Date.now()`). */
  sentAt: number;
  endedAt?: number;
  detail?: string;
}

/** An open question a person may answer, as the clients pick them. */
interface OpenQuestion {
  id: string;
  spec: QuestionSpec;
}

/** The fields of a well-formed answer to `spec`, carrying `token` in a text field (or a list's item). */
export function answerFields(spec: QuestionSpec, token: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const field of spec.fields) {
    switch (field.kind) {
      case "enum":
        fields[field.path] = String(field.options?.[0]?.value ?? "");
        break;
      case "boolean":
        fields[field.path] = "false";
        break;
      case "list":
        fields[field.path] = `Ana Costa, Ben ${token}`;
        break;
      default:
        // The Auditor takes six words or more with a business reason as an explanation.
        fields[field.path] = field.name === "currency" ? "EUR" : `Dinner with the Acme procurement team to close the renewal, ${token}.`;
    }
  }
  return fields;
}

/**
 * People answering whatever is open for them over HTTP, as fast as the server lets them, until
 * stopped: each picks an open question at random (so two sometimes race for one), posts a
 * well-formed answer to the answer action, and records how it ended. A server that is down is
 * waited for; a request it died holding is recorded as `unknown`.
 */
export function startAnsweringClients(options: {
  sql: postgres.Sql;
  actionId: string;
  people: readonly { client: HttpClient; userId: string }[];
  random: Random;
}): { submissions: Submission[]; stop(): Promise<void> } {
  const submissions: Submission[] = [];
  let stopped = false;
  let counter = 0;

  async function openQuestionsFor(userId: string): Promise<OpenQuestion[]> {
    return options.sql<OpenQuestion[]>`
      select a.id, a.spec from asks a join slots s on s.id = a.slot_id
      where a.status = 'open' and s.status = 'open' and (s.assignee_id = ${userId} or ${userId} = any(s.candidate_ids))
      order by a.asked_at limit 20`;
  }

  async function loop(person: { client: HttpClient; userId: string }): Promise<void> {
    while (!stopped) {
      let open: OpenQuestion[];
      try {
        open = await openQuestionsFor(person.userId);
      } catch {
        // The database is restarting: ask again in a moment.
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (open.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      const question = options.random.pick(open);
      const token = `t${++counter}x${options.random.int(0, 1e9).toString(36)}`;
      const submission: Submission = { questionId: question.id, token, outcome: "unknown", sentAt: Date.now() };
      submissions.push(submission);
      try {
        const response = await callAction(person.client, {
          actionId: options.actionId,
          path: `/questions/${question.id}`,
          args: [{ json: null }, { form: { questionId: question.id, ...answerFields(question.spec, token) } }],
          timeoutMs: 60_000,
        });
        const result = response.result as { outcome?: string; code?: string; message?: string } | undefined;
        if (result?.outcome === "answered") submission.outcome = "answered";
        else if (result?.outcome === "unavailable" && result.code === "conflict") submission.outcome = "conflict";
        else if (result?.outcome === "unavailable" && result.code === "internal") submission.outcome = "failed";
        else {
          submission.outcome = "unexpected";
          submission.detail = `${response.status} ${JSON.stringify(result ?? response.body.slice(0, 300))}`;
        }
        submission.endedAt = Date.now();
      } catch (error) {
        const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
        // Refused: nobody listening, so nothing was sent. Anything else: the server died holding it (or the
        // connection broke), and it may or may not have been taken.
        if (cause?.code === "ECONNREFUSED") submission.outcome = "unsent";
        submission.endedAt = Date.now();
        submission.detail = error instanceof Error ? String(error.cause ?? error.message) : String(error);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  const loops = options.people.map((person) => loop(person));
  return {
    submissions,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
