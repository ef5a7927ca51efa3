import { sql } from "drizzle-orm";
import postgres from "postgres";
import { type Database, queryRows } from "@/db/client";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { AppRuntime } from "@/lib/app-runtime";
import bcrypt from "bcryptjs";
import { startReview } from "@/examples/expense-review/start-review";

/** The one password every bench person signs in with. */
export const BENCH_PASSWORD = "bench-answers-over-http";
/**
 * bcrypt's cost for the bench people's hash: the lowest, so that signing hundreds of people in
 * through the real sign-in action takes seconds, not minutes (the server checks the password with
 * the cost stored in the hash). Signing in is set-up here, not what is measured.
 */
const BENCH_HASH_COST = 4;

/** A person the load signs in as. */
export interface BenchPerson {
  id: string;
  email: string;
}

/** One open question the load answers, with who answers it and what. */
export interface PlannedAnswer {
  questionId: string;
  /** `agent`: the Auditor's ask (one text field); `questionnaire`: the Reimbursement form. */
  kind: "agent" | "questionnaire";
  /** Index into the people list: the person it was put to. */
  person: number;
}

/** A question two requests race for: exactly one may win. */
export interface PlannedRace {
  questionId: string;
  /** The two people sending (the same person twice for a double submit). */
  people: [number, number];
}

/** Creates (or recreates) a database on the server of `adminUrl`; returns its URL. */
export async function recreateDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `count` assignees (and one operator who files the claims); all share {@link BENCH_PASSWORD}. */
export async function createPeople(database: Database, count: number): Promise<{ people: BenchPerson[]; operatorId: string }> {
  const passwordHash = await bcrypt.hash(BENCH_PASSWORD, BENCH_HASH_COST);
  const rows = Array.from({ length: count }, (_, index) => ({
    email: `bench-${String(index).padStart(4, "0")}@parley.test`,
    name: `Bench Person ${index}`,
    roles: ["assignee" as const],
    passwordHash,
  }));
  const created = await insertUsersIfAbsent(database.db, [
    ...rows,
    { email: "bench-operator@parley.test", name: "Bench Operator", roles: ["operator"], passwordHash },
  ]);
  const byEmail = new Map(created.map((user) => [user.email, user.id]));
  return {
    people: rows.map((row) => ({ id: byEmail.get(row.email)!, email: row.email })),
    operatorId: byEmail.get("bench-operator@parley.test")!,
  };
}

/**
 * Starts `count` reviews of claims the Auditor cannot explain (so it asks their filer), spread
 * over the people round-robin, and lets the runtime run them until every one has parked.
 */
export async function startParkedReviews(
  database: Database,
  app: AppRuntime,
  options: { count: number; people: readonly BenchPerson[]; operatorId: string; parallel: number },
): Promise<void> {
  let next = 0;
  const startSome = async () => {
    while (next < options.count) {
      const index = next++;
      const person = options.people[index % options.people.length]!;
      await startReview(database.db, app.runtime, {
        claim: {
          title: `Bench claim ${index}`,
          amountCents: 12_000 + (index % 90_000),
          currency: "EUR",
          merchant: `Merchant ${index % 97}`,
          incurredOn: "2026-11-20",
          description: "Taxi",
        },
        assigneeId: person.id,
        createdBy: options.operatorId,
      });
    }
  };
  await Promise.all(Array.from({ length: options.parallel }, startSome));
  await drainRuns(database, app, options.parallel);
}

/** Runs queued jobs in `parallel` loops until none is left queued or running. */
export async function drainRuns(database: Database, app: AppRuntime, parallel: number): Promise<void> {
  for (;;) {
    await Promise.all(Array.from({ length: parallel }, () => app.runtime.drain({ maxJobs: 100_000 })));
    const [left] = await queryRows<{ count: number }>(database.db, sql`select count(*)::int as count from jobs where status in ('queued', 'running')`);
    const [failed] = await queryRows<{ count: number; error: string | null }>(
      database.db,
      sql`select count(*)::int as count, min(last_error) as error from jobs where status = 'failed'`,
    );
    if (Number(failed?.count ?? 0) > 0) throw new Error(`${failed!.count} set-up jobs failed: ${failed!.error}`);
    if (Number(left?.count ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The open questions on the bench's reviews, by kind, each with the person it was put to. */
export async function listOpenQuestions(database: Database): Promise<{ questionId: string; kind: "agent" | "questionnaire"; assigneeId: string }[]> {
  const rows = await queryRows<{ id: string; conversation_id: string | null; assignee_id: string }>(
    database.db,
    sql`select a.id, a.conversation_id, s.assignee_id
        from asks a join slots s on s.id = a.slot_id
        where a.status = 'open' and a.reason is null and s.status = 'open'
        order by a.asked_at, a.id`,
  );
  return rows.map((row) => ({ questionId: row.id, kind: row.conversation_id ? "agent" : "questionnaire", assigneeId: row.assignee_id }));
}

/** Answers agent asks server-side (not timed), so that their runs move on to the questionnaire. */
export async function answerAgentAsksServerSide(
  app: AppRuntime,
  questions: readonly { questionId: string; assigneeId: string }[],
  parallel: number,
): Promise<void> {
  let next = 0;
  const answerSome = async () => {
    while (next < questions.length) {
      const question = questions[next++]!;
      const result = await app.runtime.submitAnswer({ questionId: question.questionId, by: question.assigneeId, answer: { form: { answer: AGENT_ANSWER_TEXT } } });
      if (result.status !== "answered") throw new Error(`set-up answer was not taken: ${result.status}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, answerSome));
}

/** An answer the scripted Auditor approves: six words or more, nothing personal. */
export const AGENT_ANSWER_TEXT = "Train tickets for the whole team to the Oslo client workshop.";

/** The Reimbursement questionnaire as its generated form posts it (checkbox `on`, list on one line). */
export const QUESTIONNAIRE_FIELDS: Readonly<Record<string, string>> = {
  method: "bank_transfer",
  urgent: "on",
  currency: "EUR",
  attendees: "Ana Lima, Ben Okafor",
};
