/**
 * How many refused submissions a question takes before it ends, unless the question says otherwise.
 * Here because the query that stores a model step's asks writes it (db/ imports nothing from lib/);
 * lib/questions/attempts.ts re-exports it.
 */
export const DEFAULT_ATTEMPTS = 3;
