import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/api-keys";
import { createFaultDatabase, type FaultDatabase } from "../../faults/support/database";
import { adminPostgresUrl } from "../../faults/support/prerequisites";
import { type ServerProcess, startServer } from "../../faults/support/server";
import { until } from "../../faults/support/until";

/**
 * A real Parley for an adapter's test: the fault suite's production build on a PostgreSQL database of
 * its own with the demo people, an agent key for the framework's side, and Sam's personal token for
 * the person's side (the person API: `/api/v1/questions`). `restart()` stops the server (SIGTERM) and
 * starts it again on the same database, as a deploy does while a run is parked.
 */
export interface TestParley {
  readonly baseUrl: string;
  /** The agent key (`pk_…`) the framework's side asks with. */
  readonly apiKey: string;
  /** The `whsec_…` secret the key's callback webhooks are signed with. */
  readonly webhookSecret: string;
  readonly database: FaultDatabase;
  /** Stops the server and starts it again on the same port and database. */
  restart(): Promise<void>;
  /** The open questions Sam sees, newest first (the person API). */
  questionsForSam(): Promise<PersonQuestion[]>;
  /** Waits until Sam has an open question whose title holds `title`, and returns it. */
  questionForSam(title: string, timeoutMs?: number): Promise<PersonQuestion>;
  /**
   * Sam answers a question as the person API takes it: each field's text as typed, by its path
   * (`{ decision: "approve", window_hours: "4" }`; a free-text question has one field). Look the
   * paths up with `questionSpec`.
   */
  answerAsSam(questionId: string, answers: Record<string, string>): Promise<void>;
  /** The question as Sam sees it (`spec.fields`: each field's `path`, `kind`, choices…). */
  questionSpec(questionId: string): Promise<{ spec: { fields: { path: string; [key: string]: unknown }[] }; [key: string]: unknown }>;
  /** Sam declines a question: it closes with nothing (`declined`), with his note. */
  declineAsSam(questionId: string, note?: string): Promise<void>;
  close(): Promise<void>;
}

/** A question as the person API lists it (the fields a test reads). */
export interface PersonQuestion {
  id: string;
  title: string;
  [key: string]: unknown;
}

/** Starts a Parley for one test file on `port` (3440–3449 are the adapters' ports). */
export async function startTestParley(port: number, label: string, env: Record<string, string> = {}): Promise<TestParley> {
  const database = await createFaultDatabase(adminPostgresUrl(), label);
  const authSecret = randomBytes(33).toString("base64");
  const options = { port, databaseUrl: database.url, authSecret, env: { PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS: "true", ...env } };
  let server: ServerProcess = await startServer(options);
  const agent = await createApiKey(database.database.db, { kind: "agent", name: `${label} agent`, by: null });
  const samId = database.people["sam@parley.test"]!;
  const personal = await createApiKey(database.database.db, { kind: "personal", name: "Sam's terminal", by: samId, userId: samId });
  const headers = { authorization: `Bearer ${personal.secret}`, "content-type": "application/json" };
  const baseUrl = server.baseUrl;

  async function send(path: string, init: RequestInit = {}): Promise<unknown> {
    const response = await fetch(`${baseUrl}/api/v1${path}`, { ...init, headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  const questionsForSam = async () => ((await send("/questions")) as { data: PersonQuestion[] }).data;

  return {
    baseUrl,
    apiKey: agent.secret,
    webhookSecret: agent.webhookSecret!,
    database,
    async restart() {
      await server.stop();
      server = await startServer(options);
    },
    questionsForSam,
    questionForSam: (title, timeoutMs = 30_000) =>
      until(`Sam has a question titled "${title}"`, async () => (await questionsForSam()).find((question) => question.title.includes(title)), { timeoutMs }),
    async answerAsSam(questionId, answers) {
      await send(`/questions/${questionId}/answer`, { method: "POST", body: JSON.stringify({ answers }) });
    },
    questionSpec: async (questionId) => (await send(`/questions/${questionId}`)) as Awaited<ReturnType<TestParley["questionSpec"]>>,
    async declineAsSam(questionId, note) {
      await send(`/questions/${questionId}/nothing`, { method: "POST", body: JSON.stringify(note ? { reason: "declined", note } : { reason: "declined" }) });
    },
    async close() {
      await server.kill9();
      await database.drop().catch(() => {});
    },
  };
}
