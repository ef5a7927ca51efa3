import { sql } from "drizzle-orm";
import { renderedOnce } from "./statement-parts";

/**
 * A CTE body that makes the statement's transaction commit without waiting for its WAL to reach
 * disk (`synchronous_commit = off`, for this transaction only). For the runtime's own intermediate
 * writes — job claims, lease renewals, stored model steps, parks — that nobody outside is told of:
 * a database crash can lose the last fraction of a second of them, and then the job that made them
 * simply runs again. Any later synchronous commit (a deposit, a finished run) flushes them first, so
 * nothing a person acted on can be lost. The CTE must be referenced for PostgreSQL to evaluate it.
 */
export const RELAXED_COMMIT = renderedOnce(sql`select set_config('synchronous_commit', 'off', true) as relaxed`);
