/**
 * How a database that cannot be reached shows in an error, by driver: the socket's own codes
 * (`ECONNREFUSED` while PostgreSQL restarts), postgres.js's (`CONNECTION_CLOSED` when the server went
 * away mid-query, `CONNECT_TIMEOUT`), and PostgreSQL's SQLSTATEs for a server that is shutting down,
 * starting up or out of connections. Everything else — a constraint, a syntax error, a bug — is not.
 */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  // The socket (Node.js).
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  // postgres.js.
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/** SQLSTATE class 08: connection exceptions (the connection failed, was refused or was lost). */
const CONNECTION_EXCEPTION = /^08[0-9A-Z]{3}$/;

/** How deep a cause chain is followed (drizzle wraps the driver's error; a caller may wrap again). */
const MAX_DEPTH = 8;

/**
 * Whether `error` means the database could not be reached — a passing state (a restart, a failover, a
 * full connection pool) that the same request can outlive — rather than a failure of the request
 * itself. Follows `cause` (drizzle's `DrizzleQueryError` wraps the driver's error) and an
 * `AggregateError`'s errors (Node.js tries every address of `localhost` and reports them together).
 */
export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || CONNECTION_EXCEPTION.test(code))) return true;
  if (error instanceof AggregateError && error.errors.some((each) => isDatabaseUnreachable(each, depth + 1))) return true;
  return isDatabaseUnreachable((error as { cause?: unknown }).cause, depth + 1);
}
