import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { signInLinks, users } from "../schema";
import { bareName, columnList } from "./read-aliases";

/** The link `l` and its person `u`. */
const l = alias(signInLinks, "l");
const u = alias(users, "u");

/** An answer link to store: only the SHA-256 of its token, whose it is, which question, until when. */
export interface NewAnswerLink {
  tokenHash: string;
  userId: string;
  questionId: string;
  expiresAt: Date;
}

/** Stores an answer link (`purpose` `answer`). */
export async function insertAnswerLink(db: Db, link: NewAnswerLink, at: Date): Promise<void> {
  await db.execute(
    sql`insert into ${signInLinks} (${columnList([signInLinks.tokenHash, signInLinks.purpose, signInLinks.userId, signInLinks.questionId, signInLinks.createdAt, signInLinks.expiresAt])})
        values (${link.tokenHash}, 'answer', ${link.userId}, ${link.questionId}, ${at.toISOString()}::timestamptz, ${link.expiresAt.toISOString()}::timestamptz)`,
  );
}

/**
 * Uses an answer link, once: one conditional update of `used_at`, taken only while the link is
 * unused and unexpired and its person is not deactivated. Returns whose it was and for which
 * question; undefined when it could not be used (see {@link findAnswerLink} for why).
 */
export async function takeAnswerLink(db: Db, tokenHash: string, at: Date): Promise<{ userId: string; questionId: string; expiresAt: Date } | undefined> {
  const rows = await queryRows<{ user_id: string; question_id: string; expires_at: Date | string }>(
    db,
    sql`update ${signInLinks} ${l} set ${bareName(signInLinks.usedAt)} = ${at.toISOString()}::timestamptz
          from ${users} ${u}
         where ${l.tokenHash} = ${tokenHash} and ${l.purpose} = 'answer' and ${l.usedAt} is null
           and ${l.expiresAt} > ${at.toISOString()}::timestamptz
           and ${u.id} = ${l.userId} and ${u.deactivatedAt} is null
        returning ${l.userId} as user_id, ${l.questionId} as question_id, ${l.expiresAt} as expires_at`,
  );
  const row = rows[0];
  return row ? { userId: row.user_id, questionId: row.question_id, expiresAt: toDate(row.expires_at) } : undefined;
}

/** An answer link as stored, without using it: for saying why a link can't be used. */
export async function findAnswerLink(
  db: Db,
  tokenHash: string,
): Promise<{ userId: string; questionId: string; expiresAt: Date; usedAt: Date | null; deactivated: boolean } | undefined> {
  const rows = await queryRows<{ user_id: string; question_id: string; expires_at: Date | string; used_at: Date | string | null; deactivated: boolean }>(
    db,
    sql`select ${l.userId} as user_id, ${l.questionId} as question_id, ${l.expiresAt} as expires_at, ${l.usedAt} as used_at, (${u.deactivatedAt} is not null) as deactivated
          from ${signInLinks} ${l} join ${users} ${u} on ${u.id} = ${l.userId}
         where ${l.tokenHash} = ${tokenHash} and ${l.purpose} = 'answer'`,
  );
  const row = rows[0];
  return row
    ? { userId: row.user_id, questionId: row.question_id, expiresAt: toDate(row.expires_at), usedAt: toDate(row.used_at), deactivated: row.deactivated }
    : undefined;
}
