import { and, eq, gt, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../client";
import { signInThrottle } from "../schema";
import { bareName, columnList } from "./read-aliases";

/** A failure's names: each key's `rules`, its `existing` count and the count after this failure (`counted`), as aliases of the throttle's rows. */
const rules = alias(signInThrottle, "rules");
const existing = alias(signInThrottle, "existing");
const counted = alias(signInThrottle, "counted");

/** How one kind of key is throttled. */
export interface ThrottleRule {
  /** Failures allowed before the first block. */
  allowance: number;
  /** The first block; each further failure doubles it. */
  firstBlockMs: number;
  /** No block is longer. */
  longestBlockMs: number;
  /** A key's count starts again after this long without a failure. */
  forgetAfterMs: number;
}

/** The latest moment any of these keys is blocked until, if one is blocked at `now`. */
export async function blockedUntil(db: Db, keys: readonly string[], now: Date): Promise<Date | null> {
  if (keys.length === 0) return null;
  const [row] = await db
    .select({ until: sql<Date | string | null>`max(${signInThrottle.blockedUntil})` })
    .from(signInThrottle)
    .where(and(inArray(signInThrottle.key, [...keys]), gt(signInThrottle.blockedUntil, now)));
  return row?.until ? new Date(row.until) : null;
}

/**
 * Counts a failed sign-in against each key, in one statement: a key's count goes up by one (or starts
 * again at one after `forgetAfterMs` without a failure), and once it reaches the rule's allowance the
 * key is blocked for `firstBlockMs`, doubled for each failure past it, at most `longestBlockMs`.
 * Returns the latest block now in force, if any.
 */
export async function recordSignInFailure(db: Db, keys: readonly { key: string; rule: ThrottleRule }[], now: Date): Promise<Date | null> {
  if (keys.length === 0) return null;
  const at = now.toISOString();
  const rows = keys.map(({ key, rule }) => sql`(${key}, ${rule.allowance}::int, ${rule.firstBlockMs}::float8, ${rule.longestBlockMs}::float8, ${rule.forgetAfterMs}::float8)`);
  // `rules` gives each key its own rule; `counted` is its failure count after this one.
  const returned = await queryRows<{ blocked_until: Date | string | null }>(db, sql`
    with ${rules} (${bareName(signInThrottle.key)}, allowance, first_ms, longest_ms, forget_ms) as (values ${sql.join(rows, sql`, `)}),
    ${counted} as (
      select ${rules}.*,
        case when ${existing.key} is null or ${existing.lastFailedAt} < ${at}::timestamptz - make_interval(secs => ${rules}.forget_ms / 1000)
          then 1 else ${existing.failures} + 1 end as ${bareName(signInThrottle.failures)}
      from ${rules} left join ${signInThrottle} ${existing} on ${existing.key} = ${rules.key}
    )
    insert into ${signInThrottle} (${columnList([signInThrottle.key, signInThrottle.failures, signInThrottle.lastFailedAt, signInThrottle.blockedUntil])})
    select ${counted.key}, ${counted.failures}, ${at}::timestamptz,
      case when ${counted.failures} >= ${counted}.allowance
        then ${at}::timestamptz + make_interval(secs => least(${counted}.first_ms * power(2, ${counted.failures} - ${counted}.allowance), ${counted}.longest_ms) / 1000)
      end
    from ${counted}
    on conflict (${bareName(signInThrottle.key)}) do update set ${bareName(signInThrottle.failures)} = excluded.${bareName(signInThrottle.failures)},
      ${bareName(signInThrottle.lastFailedAt)} = excluded.${bareName(signInThrottle.lastFailedAt)}, ${bareName(signInThrottle.blockedUntil)} = excluded.${bareName(signInThrottle.blockedUntil)}
    returning ${signInThrottle.blockedUntil} as blocked_until`);
  const blocks = returned.flatMap((row) => (row.blocked_until ? [new Date(row.blocked_until).getTime()] : []));
  return blocks.length > 0 ? new Date(Math.max(...blocks)) : null;
}

/** Forgets a key's failures (the right password for an account). */
export async function clearSignInFailures(db: Db, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}

/** Forgets keys neither blocked nor failed within `forgetAfterMs`: their counts would start again anyway. */
export async function deleteForgottenSignInFailures(db: Db, now: Date, forgetAfterMs: number): Promise<number> {
  const deleted = await db
    .delete(signInThrottle)
    .where(and(lt(signInThrottle.lastFailedAt, new Date(now.getTime() - forgetAfterMs)), or(isNull(signInThrottle.blockedUntil), lte(signInThrottle.blockedUntil, now))))
    .returning({ key: signInThrottle.key });
  return deleted.length;
}
