import { openDatabase } from "@/db/client";
import { askCallbackTarget, privateCallbacksFromEnvironment, queueAskEventsOnAskEnded } from "@/lib/asks/ask-webhooks";
import { createAnswerLink } from "@/lib/answer-links";
import { getDatabase } from "@/lib/database";
import { type LiveEvent, publishLiveEvents } from "@/lib/live-events";
import { log, withLogContext } from "@/lib/log";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { explainModelFailure } from "@/lib/models/explain-failure";
import { type ModelCallObserver, measuredModel } from "@/lib/models/measured-model";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { type ResolvedModel, resolveModel } from "@/lib/models/resolve-model";
import { createOutboxDrainer, type EventTarget, type NoticeOptions, queueNoticesOnQuestionAsked, remindOnEscalation, webhookEventTarget } from "@/lib/notifications/outbox";
import { type Notifier, notifiersFromEnvironment, webhookOptionsFromEnvironment } from "@/lib/notifiers";
import { notifyInAppOnChanges } from "@/lib/person-notifications";
import type { Registry } from "@/lib/registry";
import { getRegistry } from "@/lib/registry/configured";
import { getMetrics } from "@/lib/server/metrics";
import { type Agent, createRuntime, type Runtime, type RuntimeChange, type RuntimeOptions, startWorker, type Worker, type WorkerStopped } from "@/lib/runtime";

/** The runtime this server process runs on, the model its agents use, and its worker loop. */
export interface AppRuntime {
  runtime: Runtime;
  /** Which model answers, with the label screens show (the scripted model says so). */
  model: ResolvedModel;
  /** The workflows this process runs (parley.config.ts). */
  registry: Registry;
  worker: Worker;
  /** The notifiers the environment configures (none by default), and how their notices are written. */
  notifiers: readonly Notifier[];
  notices: NoticeOptions;
  /**
   * Stops the worker loop and the outbox drainer (with `timeoutMs`, each handing back what it still
   * holds then: {@link Worker.stop}, the drainer's deliveries in flight); says how their stop went.
   */
  stop(options?: { timeoutMs?: number }): Promise<AppWorkStopped>;
}

/** How this process's background work stopped: the worker's jobs, and the outbox's deliveries in flight. */
export interface AppWorkStopped extends WorkerStopped {
  /** Deliveries still in flight at the bound, whose leases were ended for another process to send them at once. */
  deliveriesHandedBack: number;
}

/** Where question links in notices point: `PARLEY_PUBLIC_URL`, else `AUTH_URL`, else the local default. */
function publicUrl(env: Record<string, string | undefined>): string {
  return env.PARLEY_PUBLIC_URL?.trim() || env.AUTH_URL?.trim() || `http://localhost:${env.PORT?.trim() || "3000"}`;
}

/**
 * How many jobs the worker loop runs at once on PostgreSQL (`PARLEY_WORKER_CONCURRENCY`): a job spends
 * most of its time waiting on the database (its commits), so a few at once keep both the process and
 * the database busy. PGlite has one connection: its worker runs one job at a time.
 */
const DEFAULT_WORKER_CONCURRENCY = 4;

/**
 * Whether this process runs the worker loop (jobs, SLA sweeps): `PARLEY_WORKER=off` makes it serve
 * requests only — a web tier beside processes that run the work, on one PostgreSQL. The embedded
 * database has one process, so its worker is never off. Anything but on/off stops the server.
 */
export function workerWanted(env: Record<string, string | undefined>): boolean {
  const configured = env.PARLEY_WORKER?.trim().toLowerCase();
  if (!configured || configured === "on") return true;
  if (configured !== "off") throw new Error(`PARLEY_WORKER must be "on" or "off" (it is "${env.PARLEY_WORKER}").`);
  if (!env.DATABASE_URL?.trim()) throw new Error("PARLEY_WORKER=off needs DATABASE_URL: on the embedded database this process is the only one, and nothing else would run the work.");
  return false;
}

/** The worker of a process told to run none: never running nor woken; `off` until the process stops (then it is not ready). */
function noWorker(): Worker & { readonly off: boolean } {
  let stopped = false;
  return {
    get off() {
      return !stopped;
    },
    wake() {},
    stop: async () => {
      stopped = true;
      return { finished: true, handedBack: 0 };
    },
    running: () => false,
  };
}

/** People named per live event: a NOTIFY payload must stay under 8000 bytes, and each id takes 39 of them. */
const AUDIENCE_PER_EVENT = 150;

/**
 * The live events announcing a runtime change: one, or — when a slot's candidates are more people
 * than one notification can name (every assignee, in the demo) — one per batch of them. Operators
 * and admins are in the first one only, so they hear of each change once.
 */
export function liveEventsFor(change: RuntimeChange): LiveEvent[] {
  const base = { kind: change.kind, taskId: change.taskId, questionId: change.questionId };
  const events: LiveEvent[] = [{ ...base, audience: { userIds: change.userIds.slice(0, AUDIENCE_PER_EVENT), roles: ["operator", "admin"] } }];
  for (let start = AUDIENCE_PER_EVENT; start < change.userIds.length; start += AUDIENCE_PER_EVENT) {
    events.push({ ...base, audience: { userIds: change.userIds.slice(start, start + AUDIENCE_PER_EVENT) } });
  }
  return events;
}

/**
 * A length of time in milliseconds from the environment: unset means the runtime's default; anything
 * but a whole number of at least `minimum` stops the server, naming the variable.
 */
export function millisecondsSetting(env: Record<string, string | undefined>, name: string, minimum: number): number | undefined {
  const configured = env[name]?.trim();
  if (!configured) return undefined;
  const value = Number(configured);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be a whole number of milliseconds, at least ${minimum} (it is "${configured}").`);
  return value;
}

/**
 * A count from the environment (at least 1, at most `maximum`): unset means `fallback`; anything else
 * stops the server, naming the variable.
 */
export function countSetting(env: Record<string, string | undefined>, name: string, fallback: number, maximum: number): number {
  const configured = env[name]?.trim();
  if (!configured) return fallback;
  const value = Number(configured);
  if (!Number.isInteger(value) || value < 1 || value > maximum) throw new Error(`${name} must be a whole number from 1 to ${maximum} (it is "${configured}").`);
  return value;
}

const GLOBAL_KEY = Symbol.for("parley.app-runtime");
type GlobalWithRuntime = typeof globalThis & { [GLOBAL_KEY]?: Promise<AppRuntime> };

/**
 * The process's runtime, created on first use: the model is resolved from the environment once (a
 * half-done configuration throws here, at start-up, naming the variable to set), and one worker loop
 * takes jobs and sweeps SLA clocks. Several processes on one PostgreSQL share the work safely.
 */
export function getAppRuntime(): Promise<AppRuntime> {
  const store = globalThis as GlobalWithRuntime;
  store[GLOBAL_KEY] ??= (async () => {
    const registry = getRegistry();
    // An agent no app scripted says so, instead of answering as if it were a model.
    const unscripted = createScriptedModel({ name: "unscripted", respond: () => ({ text: "No scripted model was registered for this agent; configure a real model (PARLEY_MODEL)." }) });
    const model = resolveModel(process.env, { scripted: () => unscripted });
    // Each model call is counted in the metrics (provider, answered or failed, seconds), through the AI SDK's own middleware.
    const measured = new WeakMap<LanguageModelV3, LanguageModelV3>();
    // A failed call is counted, and logged with what to check (the run's page says the same to those watching it).
    const observeCall: ModelCallObserver = (provider, outcome, seconds, error) => {
      getMetrics().observeModelCall(provider, outcome, seconds);
      if (outcome !== "failed") return;
      const cause = error instanceof Error ? error.message : String(error);
      const advice = explainModelFailure(cause, model);
      // Within a request or a job, the line carries its request id or its run's ids (the log's context).
      log.error({ err: error, provider, ...(advice ? { advice } : {}) }, `Parley: a call to the model (${model.label}) failed: ${cause}`);
    };
    const observe = (chosen: LanguageModelV3) => {
      if (!measured.has(chosen)) measured.set(chosen, measuredModel(chosen, observeCall));
      return measured.get(chosen)!;
    };
    const modelFor = (agent: Agent) => observe(model.kind === "scripted" ? (registry.scriptedModelFor(agent.name) ?? model.model) : model.model);
    // Like the model, a half-configured notifier throws here, at start-up, naming the variable to set.
    const baseUrl = publicUrl(process.env);
    const notifiers = notifiersFromEnvironment(process.env, {
      // Each email carries its recipient's own single-use link to answer the question, made as it is sent (only its hash is kept).
      answerLinkFor: async (notice, recipient) =>
        (await createAnswerLink((await getDatabase()).db, { userId: recipient.userId, questionId: notice.id, dueAt: notice.dueAt === null ? null : new Date(notice.dueAt), baseUrl })).url,
    });
    // The global receiver gets API asks' ends too; the same variables (checked just above) configure it.
    const globalWebhook = webhookOptionsFromEnvironment(process.env);
    const privateCallbacks = privateCallbacksFromEnvironment(process.env);
    const notices: NoticeOptions = {
      baseUrl,
      describeSubject: async (db, taskId) => (await registry.describeTasks(db, [taskId])).get(taskId)?.title,
    };
    const queueNotices = queueNoticesOnQuestionAsked({ ...notices, notifiers });
    const notifyPeople = notifyInAppOnChanges();
    const remindOnSteps = remindOnEscalation({ ...notices, notifiers });
    const queueAskEvents = queueAskEventsOnAskEnded({ baseUrl: notices.baseUrl, global: globalWebhook !== undefined });
    const database = await getDatabase();
    const { db } = database;
    const options: Omit<RuntimeOptions, "db"> = {
      workflows: registry.workflows,
      resolveModel: modelFor,
      // Inside the transaction that made the change: screens hear of it only once it is committed.
      // A question's notices, and an API ask's end, are queued in the same transaction and delivered by the drainer below, never by the run;
      // the people it is put to (or reassigned or escalated to) are told in the app in that transaction too, whatever notifiers there are,
      // and an escalation chain's remind step reminds as the Remind action does.
      announce: async (tx, changes) => {
        await publishLiveEvents(tx, changes.flatMap(liveEventsFor));
        await notifyPeople(tx, changes);
        await remindOnSteps(tx, changes);
        await queueNotices(tx, changes);
        await queueAskEvents(tx, changes);
      },
      // A job taken over from a worker whose lease ran out is counted, and said: its worker died, hung or stopped without handing it back.
      onLeaseTakeover: (job) => {
        getMetrics().observeLeaseTakeover(job.kind);
        log.warn({ taskId: job.taskId }, `Parley worker: took over a ${job.kind} job of ${job.workflow} whose worker's lease ran out.`);
      },
      // What is logged while a job runs names its run (lib/log.ts), whichever request or tick claimed it.
      aroundJob: (job, run) => withLogContext({ runId: job.instanceId, taskId: job.taskId }, run),
      // How long a dead worker's job waits to be taken over (a live worker renews its lease).
      leaseMs: millisecondsSetting(process.env, "PARLEY_JOB_LEASE_MS", 100),
      // How long one model call may take before the turn fails (and can be retried).
      turnTimeoutMs: millisecondsSetting(process.env, "PARLEY_TURN_TIMEOUT_MS", 100),
    };
    // Requests run on the shared pool; the worker, a runtime of its own, on its own connections, so the runs answers resume
    // are not queued behind every request a busy server handles (PGlite has one connection anyway).
    const runtime = createRuntime({ db, ...options });
    const concurrency = database.url ? countSetting(process.env, "PARLEY_WORKER_CONCURRENCY", DEFAULT_WORKER_CONCURRENCY, 64) : 1;
    const working = workerWanted(process.env);
    // A connection per job running at once, and one for the sweeps and a lease renewal meanwhile.
    const workerDatabase = working && database.url ? await openDatabase({ kind: "postgres", url: database.url, maxConnections: concurrency + 1, pool: "worker" }) : undefined;
    const worker = working
      ? startWorker(workerDatabase ? createRuntime({ db: workerDatabase.db, ...options }) : runtime, {
          concurrency,
          onError: (error) => log.error({ err: error }, "Parley worker: a tick failed; its work stays queued."),
        })
      : noWorker();
    // Callbacks need no configuration, so there is always a target and the drainer always runs.
    const targets: EventTarget[] = [askCallbackTarget({ db, privateCallbacks }), ...(globalWebhook ? [webhookEventTarget(globalWebhook)] : [])];
    const drainer = createOutboxDrainer({ db, notifiers, targets }).start({ onError: (error) => log.error({ err: error }, "Parley notifications: draining the outbox failed.") });
    const stop = async (stopOptions: { timeoutMs?: number } = {}): Promise<AppWorkStopped> => {
      const [stopped, drained] = await Promise.all([worker.stop(stopOptions), drainer.stop(stopOptions)]);
      await workerDatabase?.close();
      return { finished: stopped.finished && drained.finished, handedBack: stopped.handedBack, deliveriesHandedBack: drained.handedBack };
    };
    return { runtime, model, registry, worker, notifiers, notices, stop };
  })().catch((error: unknown) => {
    delete store[GLOBAL_KEY];
    throw error;
  });
  return store[GLOBAL_KEY];
}

/**
 * Stops this process's background work (the worker and the outbox drainer, once their jobs and
 * deliveries in flight finish — with `timeoutMs`, handing back at that bound the ones still running)
 * and keeps the runtime for the requests still being answered: a stopping process takes no new job,
 * and no request starts the worker again.
 */
export async function stopAppRuntimeWork(options: { timeoutMs?: number } = {}): Promise<AppWorkStopped> {
  const running = (globalThis as GlobalWithRuntime)[GLOBAL_KEY];
  return running ? (await running).stop(options) : { finished: true, handedBack: 0, deliveriesHandedBack: 0 };
}

/**
 * Hands back the jobs requests are running (an ask putting its question: `runJobsOf`) and lets no
 * request claim one after: the last step of a stopping process. Returns how many went back.
 */
export async function handBackRequestJobs(): Promise<number> {
  const running = (globalThis as GlobalWithRuntime)[GLOBAL_KEY];
  return running ? (await running).runtime.handBackJobs() : 0;
}

/** Stops the worker loop and forgets the runtime (tests). */
export async function stopAppRuntime(): Promise<void> {
  const store = globalThis as GlobalWithRuntime;
  const running = store[GLOBAL_KEY];
  delete store[GLOBAL_KEY];
  if (running) await (await running).stop().catch(() => {});
}
