import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";
import { apiAsks } from "../schema";

/** The question an API ask put, by the ask's id; whose it is, is the caller's to check. */
export async function findQuestionIdOfApiAsk(db: Db, askId: string): Promise<string | undefined> {
  const rows = await queryRows<{ question_id: string }>(db, sql`select ${apiAsks.questionId} as question_id from ${apiAsks} where ${apiAsks.id} = ${askId}`);
  return rows[0]?.question_id;
}
