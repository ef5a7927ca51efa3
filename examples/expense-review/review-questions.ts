import { and, asc, eq, sql } from "drizzle-orm";
import { type AskedQuestion, type Db, users } from "parley/workflows";
import { type ReviewQuestion, reviewQuestions } from "./schema";

/** Writes the Auditor's questions where the inbox reads them; a question already written is left alone. */
export async function writeQuestions(db: Db, taskId: string, questions: readonly AskedQuestion[], askedAt: Date): Promise<void> {
  if (questions.length === 0) return;
  await db
    .insert(reviewQuestions)
    .values(questions.map((question) => ({ taskId, askId: question.id, text: question.text, options: question.options ? [...question.options] : null, askedAt })))
    .onConflictDoNothing({ target: reviewQuestions.askId });
}

/** Marks a question answered with the words that answered it. */
export async function closeQuestion(db: Db, askId: string, answer: string, answeredAt: Date): Promise<void> {
  await db
    .update(reviewQuestions)
    .set({ status: "answered", answer, answeredAt })
    .where(and(eq(reviewQuestions.askId, askId), eq(reviewQuestions.status, "open")));
}

/** A task's questions still waiting, oldest first. */
export async function listOpenQuestions(db: Db, taskId: string): Promise<ReviewQuestion[]> {
  return db
    .select()
    .from(reviewQuestions)
    .where(and(eq(reviewQuestions.taskId, taskId), eq(reviewQuestions.status, "open")))
    .orderBy(asc(reviewQuestions.askedAt));
}

/** A task's questions, oldest first. */
export async function listQuestions(db: Db, taskId: string): Promise<ReviewQuestion[]> {
  return db.select().from(reviewQuestions).where(eq(reviewQuestions.taskId, taskId)).orderBy(asc(reviewQuestions.askedAt));
}

/** Everyone who answers claim questions: people with the assignee role who are not away. */
export async function listAnswererIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`'assignee' = any(${users.roles})`, eq(users.away, false)));
  return rows.map((row) => row.id);
}
