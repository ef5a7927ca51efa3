import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "@/db/client";
import { findApiAsk, findApiAskByIdempotencyKey, insertApiAsk, listApiAsks, type ApiAskRecord, type ApiAskStatusFilter } from "@/db/queries/api-asks";
import { findGroupsForRouting } from "@/db/queries/group-routing";
import { findUsersByEmails } from "@/db/queries/users";
import type { ApiKey } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isUuid, newTimeOrderedId } from "@/lib/ids";
import { addLogContext, log } from "@/lib/log";
import { schemaFromJsonSchema, specFromSchema } from "@/lib/questions";
import type { Runtime } from "@/lib/runtime";
import { ApiAsk } from "./api-ask-workflow";
import { type AskRequest, parseAskRequest } from "./ask-request";
import type { AskPage } from "./api-schemas";
import { askView, type AskView } from "./ask-view";

/** The longest a `GET …?wait=` holds the request open. */
export const MAX_WAIT_SECONDS = 60;
/** The most asks one page of the list holds. */
export const MAX_PAGE_SIZE = 100;
/** How long creating an ask waits for a worker that holds the job putting its question. */
const QUESTION_PUT_WAIT_MS = 5_000;
/** How often that wait looks again, besides being woken by the run's changes. */
const QUESTION_PUT_POLL_MS = 250;

/** The longest idempotency key taken. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** What the ask service is made of: the database, the runtime that puts asks to people, where question pages are. */
export interface AskServiceOptions {
  db: Db;
  runtime: Runtime;
  /** The public origin question links point at. */
  baseUrl: string;
  now?: () => Date;
  /**
   * Calls the handler for every runtime change this process hears of (across instances, through
   * LISTEN/NOTIFY), with the task it concerns; returns how to stop. A waiting `GET` wakes on it.
   */
  subscribe(handler: (change: { taskId?: string }) => void): Promise<() => void>;
}


/** The one service behind every door that asks a person from outside Parley's process (HTTP, MCP). */
export interface AskService {
  /**
   * Asks: judges the request, stores it and starts its run in one transaction, then puts the question
   * at once (someone away gets nothing straight away). The same idempotency key again gives the same
   * ask (`created: false`), whatever its status now; the same key with a different request is a conflict.
   */
  create(key: ApiKey, body: unknown, options?: { idempotencyKey?: string | null }): Promise<{ created: boolean; ask: AskView }>;
  /** One of this key's asks; `not_found` for an unknown id or another key's. */
  get(key: ApiKey, id: string): Promise<AskView>;
  /** Like {@link get}, but while the ask is open waits up to `seconds` for it to be answered or closed. */
  wait(key: ApiKey, id: string, seconds: number, signal?: AbortSignal): Promise<AskView>;
  /** This key's asks, newest first, a page at a time. */
  list(key: ApiKey, options: { status?: ApiAskStatusFilter; limit?: number; cursor?: string | null }): Promise<AskPage>;
  /** Withdraws an open ask: it closes with nothing (`cancelled`); an answered one is a conflict naming who and when. */
  cancel(key: ApiKey, id: string): Promise<AskView>;
}

/** The cursor of a list page: the last ask's created-at and id, opaque to callers. */
function encodeCursor(record: ApiAskRecord): string {
  return Buffer.from(`${record.createdAt.toISOString()}|${record.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString().split("|");
  const createdAt = new Date(at ?? "");
  // A cursor this API gave out names a moment an ask was made; JavaScript's dates reach years PostgreSQL cannot store.
  const year = createdAt.getUTCFullYear();
  if (!isUuid(id) || Number.isNaN(createdAt.getTime()) || year < 1 || year > 9999) throw new AppError("invalid_input", "cursor is not one this API gave out.", { path: "cursor" });
  return { createdAt, id };
}

/** What the request's log lines are about from here on: the ask's run (an API ask's task id is the ask's id) and its question. */
function aboutAsk(ask: { id: string; questionId: string }): void {
  addLogContext({ taskId: ask.id, questionId: ask.questionId });
}

/** Builds the ask service over one database and runtime. */
export function createAskService(options: AskServiceOptions): AskService {
  const { db, runtime, baseUrl } = options;
  const now = options.now ?? (() => new Date());

  async function record(key: ApiKey, id: string): Promise<ApiAskRecord> {
    const found = isUuid(id) ? await findApiAsk(db, key.id, id) : undefined;
    if (!found) throw new AppError("not_found", "There is no such ask (or it was made with another key).");
    aboutAsk(found);
    return found;
  }

  /** Who `to` names: each must be a person in Parley who answers questions, or a group that exists. */
  async function recipients(request: AskRequest): Promise<{ assigneeId: string | null; candidateIds: string[] }> {
    if (!Array.isArray(request.to) && typeof request.to !== "string") {
      const name = request.to.group;
      const [group] = await findGroupsForRouting(db, [name]);
      if (!group) throw new AppError("unknown_group", `There is no group “${name}” in Parley.`, { path: "to.group" });
      // Its members are read when the ask is put (and live after): the ask's `to` keeps the group's name.
      return { assigneeId: null, candidateIds: [] };
    }
    const emails = typeof request.to === "string" ? [request.to] : [...new Set(request.to)];
    const people = await findUsersByEmails(db, emails);
    const ids: string[] = [];
    for (const [index, email] of emails.entries()) {
      const path = typeof request.to === "string" ? "to" : `to[${request.to.indexOf(email)}]`;
      const person = people.find((each) => each.email === email);
      if (!person) throw new AppError("unknown_person", `There is nobody in Parley with the email ${email}.`, { path });
      if (!person.roles.includes("assignee")) throw new AppError("unknown_person", `${person.name} (${email}) does not answer questions in Parley (they are not an assignee).`, { path });
      ids[index] = person.id;
    }
    return typeof request.to === "string" ? { assigneeId: ids[0]!, candidateIds: ids } : { assigneeId: null, candidateIds: ids };
  }

  /** Each group an escalation step adds must exist, as `to.group` must. */
  async function checkEscalation(request: AskRequest): Promise<void> {
    const steps = request.escalation ?? [];
    const names = steps.flatMap((step) => (step.group === undefined ? [] : [step.group]));
    if (names.length === 0) return;
    const found = await findGroupsForRouting(db, names);
    const index = steps.findIndex((step) => step.group !== undefined && !found.some((each) => each.name === step.group!.trim().toLowerCase()));
    if (index >= 0) throw new AppError("unknown_group", `There is no group “${steps[index]!.group}” in Parley.`, { path: `escalation[${index}].group` });
  }

  /**
   * The ask's record once `done` says so of it, or as it is after `milliseconds` (or when `signal`
   * aborts). Woken by its run's changes (across instances, through LISTEN/NOTIFY), and read after
   * subscribing and after every wake, so a change between two reads is never missed; with `pollMs`,
   * read again that often besides.
   */
  async function readUntil(
    key: ApiKey,
    id: string,
    done: (current: ApiAskRecord) => boolean,
    milliseconds: number,
    reading: { pollMs?: number; signal?: AbortSignal } = {},
  ): Promise<ApiAskRecord> {
    const deadline = performance.now() + milliseconds;
    const first = await record(key, id);
    if (done(first) || milliseconds <= 0) return first;
    let wake: () => void = () => {};
    const stop = await options.subscribe((change) => {
      if (change.taskId === id) wake();
    });
    try {
      for (;;) {
        const woken = new Promise<void>((resolve) => (wake = resolve));
        const current = await record(key, id);
        const left = deadline - performance.now();
        if (done(current) || left <= 0 || reading.signal?.aborted) return current;
        const timer = new AbortController();
        const onAbort = () => timer.abort();
        reading.signal?.addEventListener("abort", onAbort, { once: true });
        await Promise.race([woken, sleep(Math.min(left, reading.pollMs ?? left), undefined, { signal: timer.signal }).catch(() => {})]);
        timer.abort();
        reading.signal?.removeEventListener("abort", onAbort);
      }
    } finally {
      stop();
    }
  }

  /**
   * The ask's record once its question is put. A run's jobs never run at once, so when a worker (of
   * this instance or another) claimed the job that puts it before `runJobsOf` could, that found
   * nothing to run: wait for the worker, briefly, so that someone away still gets nothing at once
   * rather than an ask that says open for a moment. Past the bound (a worker that died holding the
   * job), the ask is open as it is, and the worker's retry puts the question.
   */
  function questionPut(key: ApiKey, id: string): Promise<ApiAskRecord> {
    return readUntil(key, id, (current) => current.questionStatus !== null, QUESTION_PUT_WAIT_MS, { pollMs: QUESTION_PUT_POLL_MS });
  }

  function checkSchema(request: AskRequest): void {
    if (!request.responseSchema) return;
    const converted = schemaFromJsonSchema(request.responseSchema);
    if (!converted.ok) {
      throw new AppError("unsupported_schema", converted.message, { path: converted.path === "" ? "response_schema" : `response_schema.${converted.path}` });
    }
    specFromSchema(converted.schema);
  }

  async function replay(key: ApiKey, idempotencyKey: string, request: AskRequest): Promise<{ created: false; ask: AskView }> {
    const existing = await findApiAskByIdempotencyKey(db, key.id, idempotencyKey);
    if (!existing) throw new Error("an ask that conflicted on its idempotency key was not found");
    if (existing.requestHash !== request.hash) {
      throw new AppError("idempotency_conflict", `The Idempotency-Key “${idempotencyKey}” was already used by this key for a different request (ask ${existing.id}).`, {
        path: "Idempotency-Key",
      });
    }
    aboutAsk(existing);
    return { created: false, ask: askView(existing, baseUrl, now()) };
  }

  const service: AskService = {
    async create(key, body, createOptions = {}) {
      const idempotencyKey = createOptions.idempotencyKey ?? null;
      if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(idempotencyKey))) {
        throw new AppError("invalid_input", `Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters without spaces.`, { path: "Idempotency-Key" });
      }
      const at = now();
      // A replay is answered before anything else is judged again: the same key gives the same ask. Its
      // request is judged as of the first one, so a deadline that has passed since is still the same request.
      if (idempotencyKey) {
        const existing = await findApiAskByIdempotencyKey(db, key.id, idempotencyKey);
        if (existing) return replay(key, idempotencyKey, parseAskRequest(body, existing.createdAt));
      }
      const request = parseAskRequest(body, at);
      checkSchema(request);
      const parties = await recipients(request);
      await checkEscalation(request);
      const id = newTimeOrderedId(at.getTime());
      const questionId = newTimeOrderedId(at.getTime());
      const created = await db.transaction(async (tx) => {
        const executor = tx as unknown as Db;
        const inserted = await insertApiAsk(executor, {
          id,
          apiKeyId: key.id,
          idempotencyKey,
          requestHash: request.hash,
          questionId,
          title: request.title,
          body: request.body,
          context: request.context,
          responseSchema: request.responseSchema,
          to: request.to,
          ...parties,
          dueAt: request.dueAt,
          attempts: request.attempts,
          callbackUrl: request.callbackUrl,
          metadata: request.metadata,
          escalation: request.escalation,
          createdAt: at,
        });
        if (inserted) await runtime.start(ApiAsk, { id }, { db: executor });
        return inserted;
      });
      if (!created) return replay(key, idempotencyKey!, request);
      aboutAsk({ id, questionId });
      // The worker would put the question too; doing it now lets the answer say whether it is open.
      const put = await runtime.runJobsOf(id).then(
        () => true,
        (error: unknown) => {
          log.error({ err: error }, "Parley ask: putting the question failed; the worker will retry.");
          return false;
        },
      );
      return { created: true, ask: askView(put ? await questionPut(key, id) : await record(key, id), baseUrl, now()) };
    },

    async get(key, id) {
      return askView(await record(key, id), baseUrl, now());
    },

    async wait(key, id, seconds, signal) {
      const ended = (current: ApiAskRecord) => current.questionStatus === "answered" || current.questionStatus === "nothing";
      const milliseconds = Math.min(Math.max(seconds, 0), MAX_WAIT_SECONDS) * 1000;
      return askView(await readUntil(key, id, ended, milliseconds, signal ? { signal } : {}), baseUrl, now());
    },

    async list(key, listOptions) {
      const limit = listOptions.limit ?? 20;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new AppError("invalid_input", `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`, { path: "limit" });
      const after = listOptions.cursor ? decodeCursor(listOptions.cursor) : undefined;
      const rows = await listApiAsks(db, key.id, { limit, ...(after ? { after } : {}), ...(listOptions.status ? { status: listOptions.status } : {}) });
      const page = rows.slice(0, limit);
      const at = now();
      return { data: page.map((row) => askView(row, baseUrl, at)), next_cursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null };
    },

    async cancel(key, id) {
      const ask = await record(key, id);
      const closed = await runtime.closeWithNothing({ questionId: ask.questionId, reason: "cancelled" });
      if (closed.status === "closed") return service.get(key, id);
      if (closed.status === "not_found") {
        // Asked a moment ago: its question is being put now. Put it, then withdraw it.
        await runtime.runJobsOf(ask.id);
        const again = await runtime.closeWithNothing({ questionId: ask.questionId, reason: "cancelled" });
        if (again.status === "closed") return service.get(key, id);
      }
      const current = await service.get(key, id);
      if (current.status === "answered") {
        throw new AppError("conflict", `This ask was already answered by ${current.answered_by?.name ?? "someone"} at ${current.answered_at}; it cannot be cancelled.`);
      }
      // Cancelling twice is asking for what is already so.
      if (current.status === "nothing" && current.reason === "cancelled") return current;
      if (current.status === "nothing") throw new AppError("conflict", `This ask already closed with no answer (${current.reason}).`);
      throw new AppError("conflict", "This ask changed at the same moment; try again.");
    },
  };
  return service;
}
