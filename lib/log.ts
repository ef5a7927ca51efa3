import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { format } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import { type Environment, isDemoMode } from "@/lib/config";
import { isSpanContextValid, trace } from "@opentelemetry/api";

// The server's own log: one pino logger (no Next.js, no React: scripts and tests load it too). Every
// line goes through one writer that scrubs secrets from it, whatever field they are in, and writes
// it to stdout as JSON or as a line of text. A request's lines carry its id, and a run's or a
// question's lines their ids, from an AsyncLocalStorage context (`withLogContext`).

export const LOG_FORMATS = ["json", "text"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogSettings {
  format: LogFormat;
  level: LogLevel;
}

/**
 * `PARLEY_LOG_FORMAT` (`json` or `text`) and `PARLEY_LOG_LEVEL` (default `info`). Unset, a production
 * server on PostgreSQL (`NODE_ENV=production` with `DATABASE_URL`) writes JSON lines for a log
 * pipeline; the demo (`npm start` on the embedded database) and `next dev` write text, for the person
 * at the terminal who reads the demo's sign-ins there.
 */
function readLogSettings(env: Environment): { settings: LogSettings; problem?: string } {
  const problems: string[] = [];
  const formatText = env.PARLEY_LOG_FORMAT?.trim().toLowerCase();
  let chosenFormat: LogFormat = env.NODE_ENV === "production" && !isDemoMode(env) ? "json" : "text";
  if (formatText) {
    if ((LOG_FORMATS as readonly string[]).includes(formatText)) chosenFormat = formatText as LogFormat;
    else problems.push(`PARLEY_LOG_FORMAT must be json or text (it is "${env.PARLEY_LOG_FORMAT}").`);
  }
  const levelText = env.PARLEY_LOG_LEVEL?.trim().toLowerCase();
  let level: LogLevel = "info";
  if (levelText) {
    if ((LOG_LEVELS as readonly string[]).includes(levelText)) level = levelText as LogLevel;
    else problems.push(`PARLEY_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (it is "${env.PARLEY_LOG_LEVEL}").`);
  }
  return { settings: { format: chosenFormat, level }, ...(problems.length > 0 ? { problem: problems.join(" ") } : {}) };
}

/** The log's settings from the environment; a malformed one is left at its default (the server refuses it at start: {@link checkLogSettings}). */
export function logSettings(env: Environment = process.env): LogSettings {
  return readLogSettings(env).settings;
}

/** Throws, naming the variable, when `PARLEY_LOG_FORMAT` or `PARLEY_LOG_LEVEL` is malformed. */
export function checkLogSettings(env: Environment = process.env): void {
  const { problem } = readLogSettings(env);
  if (problem) throw new Error(problem);
}

// --- Secrets -------------------------------------------------------------------------------------

/** What a field whose name says it holds a secret is written as. */
export const REDACTED = "[redacted]";

/** Field names that hold secrets, wherever they are in a line: `password`, `webhookSecret`, `authorization`, `set-cookie`, `apiKey`… */
const SECRET_FIELD = /pass(?:word|wd|phrase)|secret|token|authori[sz]ation|cookie|api[-_]?key|credential|private[-_]?key/i;

/** Secrets in text: each rule finds one kind and leaves what tells it apart (its prefix, a URL's user name). */
const SECRET_TEXT: readonly [RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
  // A URL's user information: scheme://user:password@host → scheme://user:***@host; scheme://token@host → scheme://***@host.
  // Up to the last `@` before the path, as a password may hold an `@` that was not percent-encoded.
  [
    /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]*)@/gi,
    (_match, scheme, userInformation) => {
      const colon = userInformation!.indexOf(":");
      return colon >= 0 ? `${scheme}${userInformation!.slice(0, colon)}:***@` : `${scheme}***@`;
    },
  ],
  // A bearer credential, as an Authorization header carries it.
  [/\b(bearer)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 ***"],
  // Parley's agent keys and personal tokens (lib/api-keys.ts: `pk_`/`pt_` and 32 base64url characters); shorter is a screen's prefix.
  [/(?<![A-Za-z0-9])(pk|pt)_[A-Za-z0-9_-]{8,}/g, "$1_***"],
  // Standard Webhooks signing secrets (lib/notifiers/standard-webhook.ts: `whsec_` and base64).
  [/(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/=_-]+/g, "whsec_***"],
  // The one-time token of an answer link or an invite (lib/answer-links.ts, lib/invites.ts: 32 bytes in base64url) in its path.
  [/(\/(?:a|invite)\/)[A-Za-z0-9_-]{32,}/g, "$1***"],
  // A password's bcrypt hash (a failed query's parameters may hold one).
  [/\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}/g, "$$2b$$***"],
  // A JSON web token (or next-auth's encrypted session token): base64url JSON header, then dot-separated parts.
  [/\beyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){1,4}/g, "***"],
  // `password=…`, `"token": "…"`, `PARLEY_WEBHOOK_SECRET=…`, `?api_key=…`, `authorization: …`.
  [/((?:pass(?:word|wd)|secret|token|api[_-]?key|authori[sz]ation|cookie)["']?\s*[:=]\s*["']?)(?!\*\*\*)([^\s"'&,;]+)/gi, "$1***"],
];

/** `text` with every secret it holds replaced (see {@link scrubSecrets}). */
export function scrubText(text: string): string {
  let scrubbed = text;
  for (const [pattern, replacement] of SECRET_TEXT) {
    scrubbed = typeof replacement === "string" ? scrubbed.replace(pattern, replacement) : scrubbed.replace(pattern, replacement);
  }
  return scrubbed;
}

/**
 * `value` (a log line's fields) without secrets: a field named like a secret (`password`, `token`,
 * `secret`, `authorization`, `cookie`, `apiKey`…) is {@link REDACTED} unless it is a number or a
 * boolean, and every string anywhere — messages, stack traces, nested fields — is scrubbed of
 * Parley's keys and tokens (`pk_…`, `pt_…`), webhook secrets (`whsec_…`), bearer tokens, JSON web
 * tokens, `password=…`-like pairs and the passwords of URLs (`postgres://user:***@host`).
 */
export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object" || depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => scrubSecrets(item, depth + 1));
  const scrubbed: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const secret = SECRET_FIELD.test(key) && field !== null && typeof field !== "number" && typeof field !== "boolean";
    scrubbed[key] = secret ? REDACTED : scrubSecrets(field, depth + 1);
  }
  return scrubbed;
}

// --- Context: the request, run and question a line is about --------------------------------------

/** What a log line says it is about: the request (`X-Request-Id`), the run (workflow instance and task) and the question. */
export interface LogFields {
  requestId?: string;
  /** The workflow instance a job moves. */
  runId?: string;
  /** The run's task: its page is /tasks/<taskId>; an API ask's task id is the ask's id. */
  taskId?: string;
  questionId?: string;
}

const CONTEXT_KEY = Symbol.for("parley.log-context");
type GlobalWithContext = typeof globalThis & { [CONTEXT_KEY]?: AsyncLocalStorage<LogFields> };

/** One store per process: Next.js bundles this module once per route, and a request's lines must find its context whichever copy writes them. */
function contextStorage(): AsyncLocalStorage<LogFields> {
  const store = globalThis as GlobalWithContext;
  return (store[CONTEXT_KEY] ??= new AsyncLocalStorage<LogFields>());
}

function defined(fields: LogFields): LogFields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => typeof value === "string" && value !== "")) as LogFields;
}

/** Runs `body` with `fields` added to the fields of the context it is in: every line written in it, however deep, carries them. */
export function withLogContext<T>(fields: LogFields, body: () => T): T {
  const storage = contextStorage();
  return storage.run({ ...storage.getStore(), ...defined(fields) }, body);
}

/** Adds `fields` to the current context from here on (a request that has just learnt its question's id); nothing outside a context. */
export function addLogContext(fields: LogFields): void {
  const current = contextStorage().getStore();
  if (current) Object.assign(current, defined(fields));
}

/** The trace a line is written in, when tracing is on (lib/server/tracing.ts): its ids, to find the line from the trace and back. */
function traceOfLine(): { traceId?: string; spanId?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : {};
}

/** The current context's fields. */
export function logContext(): Readonly<LogFields> {
  return contextStorage().getStore() ?? {};
}

/** The header a request's id comes in and goes back out in. */
export const REQUEST_ID_HEADER = "x-request-id";

/** An id a caller (or a proxy in front) may choose: 1–128 characters of the kinds request and trace ids use, no spaces or quotes. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:;=+/@-]{1,128}$/;

/** The request's id: the `X-Request-Id` it came with when that is sane, else a new one. */
export function requestIdFrom(headers: Headers | null | undefined): string {
  const given = headers?.get(REQUEST_ID_HEADER)?.trim();
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

// --- The logger ----------------------------------------------------------------------------------

/** pino's error serializer (message, stack and causes, the error's own fields), less what an AI SDK error carries of the whole prompt. */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  delete serialized.requestBodyValues;
  return serialized;
}

/** A value as one word of a text line. */
function textValue(value: unknown): string {
  return typeof value === "string" && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

/** A line as people read it: the level unless it is info, the message, the other fields as `name=value`, then an error's stack. */
function renderText(entry: Record<string, unknown>): string {
  const { level, msg, err } = entry;
  // The time, process and host are left to whatever shows the terminal; the rest is what the line is about.
  const fields = Object.fromEntries(Object.entries(entry).filter(([name]) => !["level", "time", "pid", "hostname", "msg", "err"].includes(name)));
  const tag = level === "info" || level === undefined ? "" : `${String(level).toUpperCase()} `;
  const extras = Object.entries(fields).map(([name, value]) => `${name}=${textValue(value)}`);
  let text = `${tag}${typeof msg === "string" ? msg : ""}${extras.length > 0 ? `  ${extras.join(" ")}` : ""}`;
  if (err && typeof err === "object") {
    const { stack, type, message } = err as { stack?: unknown; type?: unknown; message?: unknown };
    text += `\n${typeof stack === "string" ? stack : `${String(type ?? "Error")}: ${String(message ?? "")}`}`;
  }
  return `${text}\n`;
}

/**
 * Where pino's lines go: each is scrubbed of secrets ({@link scrubSecrets}) — so no call site can
 * forget to — and written as JSON or as text. A line that is somehow not JSON is scrubbed as text.
 */
function scrubbingDestination(chosenFormat: LogFormat, write: (text: string) => void): DestinationStream {
  return {
    write(line: string) {
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        write(scrubText(line));
        return;
      }
      const scrubbed = scrubSecrets(entry) as Record<string, unknown>;
      write(chosenFormat === "json" ? `${JSON.stringify(scrubbed)}\n` : renderText(scrubbed));
    },
  };
}

/** Writes to the process's stdout as it is at the moment of writing (so a test may spy on it). */
function toStdout(text: string): void {
  process.stdout.write(text);
}

/**
 * A logger: JSON lines of `level` (its name), `time` (ISO 8601), `pid`, `hostname`, the current
 * context's fields ({@link withLogContext}), the line's own fields and `msg`; errors under `err`
 * with pino's serializer. Written with `write` (stdout by default) after scrubbing.
 */
export function createLogger(settings: LogSettings, write: (text: string) => void = toStdout): Logger {
  return pino(
    {
      level: settings.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => ({ ...contextStorage().getStore(), ...traceOfLine() }),
      serializers: { err: serializeError },
    },
    scrubbingDestination(settings.format, write),
  );
}

/** The server's logger, as the environment sets it ({@link logSettings}). */
export const log: Logger = createLogger(logSettings());

const CONSOLE_ROUTED = Symbol.for("parley.console-routed");
type ConsoleLevel = "info" | "warn" | "error" | "debug";

/**
 * Sends what the server's libraries (Next.js, next-auth, the AI SDK) and older lines print with
 * `console` through `logger` — scrubbed, and as JSON when the log is JSON, so a log pipeline reads
 * every line the server writes after start. An Error among the arguments goes under `err`.
 */
export function routeConsoleToLog(logger: Logger = log): void {
  const marked = console as Console & { [CONSOLE_ROUTED]?: true };
  if (marked[CONSOLE_ROUTED]) return;
  marked[CONSOLE_ROUTED] = true;
  const levels: Record<"log" | "info" | "warn" | "error" | "debug", ConsoleLevel> = { log: "info", info: "info", warn: "warn", error: "error", debug: "debug" };
  for (const [method, level] of Object.entries(levels) as [keyof typeof levels, ConsoleLevel][]) {
    console[method] = (...words: unknown[]) => {
      const error = words.find((word): word is Error => word instanceof Error);
      const message = format(...words.filter((word) => word !== error));
      if (error) logger[level]({ err: error }, message || error.message);
      else logger[level](message);
    };
  }
}
