import type { Db } from "@/db/client";
import { type ClaimedNotice, claimDueNotices, findNoticeSource, queueNotice, recordDelivery, releaseDeliveryLeases, renewDeliveryLeases } from "@/db/queries/notification-outbox";
import type { OutboxEventKind } from "@/db/schema";
import type { StoredWebhookEvent } from "@/db/types/webhook-event";
import {
  deliverWebhook,
  hasUrlCredentials,
  isWebhookSecret,
  type DeliveryReport,
  type Notifier,
  type QuestionNotice,
  type WebhookMessage,
  type WebhookNotifierOptions,
} from "@/lib/notifiers";
import { notifyInApp } from "@/lib/person-notifications";
import { log } from "@/lib/log";
import { deliveryFailureReason } from "./failed-deliveries";
import type { Announce, RuntimeChange } from "@/lib/runtime";

export type { StoredWebhookEvent };

/** How notices are written: where links point, and what a task is about. */
export interface NoticeOptions {
  /** The app's public origin, e.g. `https://parley.example.com`: question links are absolute. */
  baseUrl: string;
  /** What a task is about, in a line (e.g. "Claim: Dinner, Lisbon"); defaults to the asker's name. */
  describeSubject?: (db: Db, taskId: string) => Promise<string | undefined>;
}

/**
 * A question's notice as it stands in `db`, or undefined when it has no open slot or nobody to tell.
 * A question with no deadline is told of too, with `dueAt` null.
 */
export async function buildQuestionNotice(
  db: Db,
  questionId: string,
  options: NoticeOptions,
  kind: { kind: "question-opened" } | { kind: "reminder"; remindedAt: Date; remindedBy?: string },
): Promise<QuestionNotice | undefined> {
  const source = await findNoticeSource(db, questionId);
  if (!source || source.recipients.length === 0) return undefined;
  const subject = (await options.describeSubject?.(db, source.taskId)) ?? source.askedBy;
  const fields = {
    id: source.questionId,
    url: new URL(`/questions/${source.questionId}`, options.baseUrl).toString(),
    question: source.headline,
    askedBy: source.askedBy,
    subject,
    recipients: source.recipients,
    openedAt: source.openedAt.toISOString(),
    dueAt: source.dueAt?.toISOString() ?? null,
  };
  return kind.kind === "reminder"
    ? { kind: "reminder", remindedAt: kind.remindedAt.toISOString(), ...(kind.remindedBy ? { remindedBy: kind.remindedBy } : {}), ...fields }
    : { kind: "question-opened", ...fields };
}

/**
 * An announce hook that queues a notice for each configured notifier when a question opens, in the
 * transaction that opened it: the notice exists exactly when the question does. Nothing is written
 * when no notifier is configured.
 */
export function queueNoticesOnQuestionAsked(options: NoticeOptions & { notifiers: readonly Notifier[]; now?: () => Date }): Announce {
  const names = [...new Set(options.notifiers.map((notifier) => notifier.name))];
  return async (tx: Db, changes: readonly RuntimeChange[]) => {
    if (names.length === 0) return;
    for (const change of changes) {
      if (change.kind !== "question-asked" || !change.questionId) continue;
      // An agent's ask is announced once before its slot opens (no one to tell yet) and again when it is linked to one.
      const notice = await buildQuestionNotice(tx, change.questionId, options, { kind: "question-opened" });
      if (notice) await queueNotice(tx, notice, names, options.now?.() ?? new Date());
    }
  };
}

/** Queues a reminder of an open question for every configured notifier; returns how many deliveries were queued. */
export async function queueReminder(
  db: Db,
  questionId: string,
  options: NoticeOptions & { notifiers: readonly Notifier[]; at: Date; remindedBy?: string },
): Promise<{ status: "queued"; deliveries: number } | { status: "nothing_to_send" }> {
  const names = [...new Set(options.notifiers.map((notifier) => notifier.name))];
  const notice = await buildQuestionNotice(db, questionId, options, { kind: "reminder", remindedAt: options.at, ...(options.remindedBy ? { remindedBy: options.remindedBy } : {}) });
  if (!notice) return { status: "nothing_to_send" };
  return { status: "queued", deliveries: await queueNotice(db, notice, names, options.at) };
}

/** A webhook event of the outbox, as its target is handed it. */
export interface OutboxEvent {
  /** The question it is about; for an ask's event, the ask's question. */
  questionId: string;
  kind: OutboxEventKind;
  /** The message to send: its id is the `webhook-id` of every delivery, retries included. */
  message: WebhookMessage;
}

/**
 * Where the outbox's webhook events go: the rows whose `notifier` is `name`. Like a notifier's
 * `notify`, `deliver` resolves with a `DeliveryReport` and does not throw; it is given no secret — it
 * knows or looks up its own.
 */
export interface EventTarget {
  readonly name: string;
  deliver(event: OutboxEvent): Promise<DeliveryReport>;
}

/**
 * The target name of the global receiver (`PARLEY_WEBHOOK_URL`): the webhook notifier's name too, as
 * the same two variables configure both — an instance has both or neither.
 */
export const GLOBAL_WEBHOOK_TARGET = "webhook";

/** A stored event as the message `deliverWebhook` sends. */
export function storedEventMessage(event: StoredWebhookEvent): WebhookMessage {
  return { id: event.id, type: event.type, timestamp: new Date(event.timestamp), data: event.data };
}

/**
 * The global receiver as an event target: every event is POSTed to one URL (`PARLEY_WEBHOOK_URL`)
 * signed with one secret (`PARLEY_WEBHOOK_SECRET`), through `deliverWebhook`. Throws a `TypeError` at
 * once for a URL that is not http(s) or carries credentials, or a secret that is not `whsec_`, as the
 * webhook notifier does.
 */
export function webhookEventTarget(options: WebhookNotifierOptions): EventTarget {
  const url = new URL(options.url);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`A webhook URL must be http or https, not ${url.protocol}`);
  if (hasUrlCredentials(url)) throw new TypeError("A webhook URL must not carry a user name or password.");
  if (!isWebhookSecret(options.secret)) throw new TypeError("A webhook secret must be whsec_ followed by 24 to 64 bytes in base64.");
  const { secret, ...retry } = options;
  return {
    name: GLOBAL_WEBHOOK_TARGET,
    deliver: (event) => deliverWebhook({ ...retry, url, secret, message: event.message }),
  };
}

/** How a drainer's stop went: its deliveries in flight all ended, or not — and how many of them were handed back. */
export interface DrainerStopped {
  finished: boolean;
  /** Deliveries still in flight at the bound, their leases ended: another drainer sends them again at once. */
  handedBack: number;
}

/** Delivers the outbox. */
export interface OutboxDrainer {
  /** Claims and delivers what is due, once; returns how many deliveries it made. */
  drainOnce(): Promise<number>;
  /**
   * Drains every `intervalMs` until stopped; a slow receiver holds up only this loop, never a run.
   * `stop` claims nothing more and waits for the deliveries in flight — at most `timeoutMs` when
   * given, then hands back those still running (a receiver slow to answer, a webhook waiting to try
   * again) for another drainer to send at once rather than when their lease would run out.
   */
  start(options?: { intervalMs?: number; onError?: (error: unknown) => void }): { stop(options?: { timeoutMs?: number }): Promise<DrainerStopped> };
}

// How long a claimed delivery stays this drainer's unless renewed: how soon another instance sends
// again what a killed one had in flight (under the same webhook-id). It no longer has to outlast the
// slowest delivery (a webhook's four 10 s tries and 30 s waits, 130 s; an email's 30 s per recipient,
// unbounded with a group), as it once did at 5 minutes: the drainer renews it every third of it while
// a delivery runs, as the worker renews a job's. The price of a short lease: an instance that cannot
// renew for two thirds of it (its event loop stalled, the database unreachable) may have its delivery
// sent again by another while it is still sending — which receivers drop by webhook-id, as they must anyway.
const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_DELIVERIES = 5;
const DEFAULT_RETRY_DELAY_MS = 30_000;
const MAX_RETRY_DELAY_MS = 60 * 60_000;

/**
 * A drainer over the outbox: claims due rows with `FOR UPDATE SKIP LOCKED` and a lease, renewed while
 * it delivers (so several app instances share it, and a dead one's rows are taken over when its lease
 * runs out: 30 s by default, and the same `webhook-id` is sent again), hands each
 * notice to its notifier and each event to its target, records the `DeliveryReport`, and queues a
 * retryable failure again with exponential backoff until `maxDeliveries`; the last report stays on
 * the row. It claims only what it can deliver: notices for the notifiers it has, events for the
 * targets it has. Each failed delivery is logged in one line (a warning while it will be tried again,
 * an error when it is given up), and admins see it on Admin → Failed deliveries.
 */
export function createOutboxDrainer(options: {
  db: Db;
  /** Deliver question notices (rows of kind `question-opened`, `reminder`), by name. */
  notifiers?: readonly Notifier[];
  /** Deliver webhook events (rows of kind `ask-answered`, `ask-nothing`), by name. */
  targets?: readonly EventTarget[];
  now?: () => Date;
  /** How long a claimed row is this drainer's without renewal (renewed every third of it while delivering): how soon a dead instance's deliveries are taken over. Default 30 s. */
  leaseMs?: number;
  maxDeliveries?: number;
  /** The wait before the second delivery; doubled for each after it, at most an hour. */
  retryDelayMs?: number;
  batchSize?: number;
}): OutboxDrainer {
  const now = options.now ?? (() => new Date());
  const notifiers = new Map((options.notifiers ?? []).map((notifier) => [notifier.name, notifier]));
  const targets = new Map((options.targets ?? []).map((target) => [target.name, target]));
  const deliverable = { notifiers: [...notifiers.keys()], targets: [...targets.keys()] };
  const maxDeliveries = options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const renewEveryMs = Math.max(10, Math.floor(leaseMs / 3));

  async function send(claimed: ClaimedNotice): Promise<DeliveryReport> {
    // The claim took only rows this drainer has a notifier or target for; a missing one is a bug, not a receiver's refusal.
    if ("notice" in claimed) {
      const notifier = notifiers.get(claimed.notifier);
      return notifier ? notifier.notify(claimed.notice) : { notifier: claimed.notifier, status: "failed", retryable: false, attempts: [] };
    }
    const target = targets.get(claimed.notifier);
    if (!target) return { notifier: claimed.notifier, status: "failed", retryable: false, attempts: [] };
    const delivered = await target.deliver({ questionId: claimed.questionId, kind: claimed.kind, message: storedEventMessage(claimed.event) });
    return { ...delivered, notifier: target.name };
  }

  async function deliver(claimed: ClaimedNotice) {
    const report = await send(claimed);
    const at = now();
    const retry = report.status === "failed" && report.retryable && claimed.deliveries < maxDeliveries;
    const delay = Math.min(retryDelayMs * 2 ** (claimed.deliveries - 1), MAX_RETRY_DELAY_MS);
    const retryAt = retry ? new Date(at.getTime() + delay) : null;
    await recordDelivery(options.db, claimed, { report, retryAt, at });
    if (report.status === "failed") {
      // One line per failed delivery, for whoever reads the server's log: what, for which question, through what, and why (reports hold no secrets).
      const line = `Parley notifications: ${claimed.kind} for question ${claimed.questionId} through ${claimed.notifier} failed (delivery ${claimed.deliveries} of at most ${maxDeliveries}): ${deliveryFailureReason(report)}`;
      const about = { questionId: claimed.questionId, notifier: claimed.notifier, delivery: claimed.deliveries };
      if (retryAt) log.warn(about, `${line}; trying again at ${retryAt.toISOString()}.`);
      else log.error(about, `${line}; given up.`);
    }
  }

  /** The deliveries this drainer has claimed and not yet recorded, whichever drain took them. */
  const delivering = new Set<ClaimedNotice>();
  /** Whether it still keeps the leases of what it delivers: not once a stop has handed them back. */
  let keepingLeases = true;

  const drainer: OutboxDrainer = {
    async drainOnce() {
      if (notifiers.size === 0 && targets.size === 0) return 0;
      const at = now();
      const claimed = await claimDueNotices(options.db, {
        at,
        leaseUntil: new Date(at.getTime() + leaseMs),
        limit: options.batchSize ?? 10,
        deliverable,
      });
      if (claimed.length === 0) return 0;
      for (const each of claimed) delivering.add(each);
      const renewal = setInterval(() => {
        if (!keepingLeases) return;
        // A failed renewal is tried again at the next tick; if none lands in time, another instance may send it again.
        const stillDelivering = claimed.filter((each) => delivering.has(each));
        renewDeliveryLeases(options.db, stillDelivering, new Date(now().getTime() + leaseMs)).catch(() => {});
      }, renewEveryMs);
      renewal.unref();
      try {
        // Settled, not Promise.all: one failure must not stop renewing the deliveries still running.
        const outcomes = await Promise.allSettled(
          claimed.map(async (each) => {
            try {
              await deliver(each);
            } finally {
              delivering.delete(each);
            }
          }),
        );
        const failure = outcomes.find((outcome) => outcome.status === "rejected");
        if (failure) throw failure.reason;
      } finally {
        clearInterval(renewal);
      }
      return claimed.length;
    },

    start(startOptions = {}) {
      const intervalMs = startOptions.intervalMs ?? 1_000;
      let stopped = false;
      let wake: () => void = () => {};
      const loop = (async () => {
        while (!stopped) {
          try {
            if ((await drainer.drainOnce()) > 0) continue;
          } catch (error) {
            startOptions.onError?.(error);
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, intervalMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      })();
      return {
        async stop(stopOptions = {}) {
          stopped = true;
          wake();
          if (stopOptions.timeoutMs === undefined) {
            await loop;
            return { finished: true, handedBack: 0 };
          }
          let timer: ReturnType<typeof setTimeout> | undefined;
          const ended = await Promise.race([
            loop.then(() => true),
            new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, stopOptions.timeoutMs!)))),
          ]);
          clearTimeout(timer);
          if (ended) return { finished: true, handedBack: 0 };
          // Still delivering at the bound: the loop claims nothing more, and what it holds goes back now (renewed no more).
          keepingLeases = false;
          // Not handed back when the database cannot be reached: their leases run out instead, as a killed instance's do.
          const handedBack = await releaseDeliveryLeases(options.db, [...delivering], now()).catch(() => 0);
          return { finished: false, handedBack };
        },
      };
    },
  };
  return drainer;
}

/** What a reminder reached: the people reminded in the app, and how many deliveries were queued for notifiers. */
export type RemindResult = { status: "reminded"; people: string[]; deliveries: number } | { status: "nothing_to_send" };

/** How a reminder is sent: by someone (the Remind action), or by a step of the wait's escalation chain. */
export type RemindOptions = NoticeOptions & {
  notifiers: readonly Notifier[];
  at: Date;
  remindedBy?: string;
  /** The escalation step that reminds, at this percentage of the SLA. */
  escalation?: { step: number; percent: number };
};

/**
 * Reminds whoever an open question waits on, inside the caller's transaction: always in the app (a
 * `reminder` notification for each, announced live), and through every configured notifier.
 * `nothing_to_send` when the question is not open or nobody is there to remind (everyone it is put
 * to is away). The one road of a reminder: the Remind action and an escalation's remind step.
 */
export async function remindWithin(tx: Db, questionId: string, options: RemindOptions): Promise<RemindResult> {
  const source = await findNoticeSource(tx, questionId);
  if (!source || source.recipients.length === 0) return { status: "nothing_to_send" };
  await notifyInApp(
    tx,
    source.recipients.map((recipient) => ({
      userId: recipient.userId,
      kind: "reminder" as const,
      taskId: source.taskId,
      questionId: source.questionId,
      data: {
        headline: source.headline,
        askedBy: source.askedBy,
        ...(options.remindedBy ? { remindedBy: options.remindedBy } : {}),
        ...(options.escalation ? { escalationStep: options.escalation.step, percent: options.escalation.percent } : {}),
      },
    })),
    options.at,
  );
  const queued = await queueReminder(tx, questionId, options);
  return { status: "reminded", people: source.recipients.map((recipient) => recipient.name), deliveries: queued.status === "queued" ? queued.deliveries : 0 };
}

/** {@link remindWithin} in a transaction of its own: the Remind action. */
export async function remindAboutQuestion(db: Db, questionId: string, options: RemindOptions): Promise<RemindResult> {
  return db.transaction(async (transaction) => remindWithin(transaction as unknown as Db, questionId, options));
}

/**
 * An announce hook for the `remind` steps of escalation chains: the question the wait is for is
 * reminded as the Remind action reminds it ({@link remindWithin}), in the transaction that fired the
 * step. A wait with no question (a deposit-only wait) has its people reminded in the app.
 */
export function remindOnEscalation(options: NoticeOptions & { notifiers: readonly Notifier[]; now?: () => Date }): Announce {
  return async (tx: Db, changes: readonly RuntimeChange[]) => {
    for (const change of changes) {
      const escalation = change.escalation;
      if (change.kind !== "slot-escalated" || escalation?.action.kind !== "remind") continue;
      const at = options.now?.() ?? new Date();
      const step = { step: escalation.step, percent: escalation.percent };
      if (change.questionId) {
        await remindWithin(tx, change.questionId, { ...options, at, escalation: step });
      } else {
        await notifyInApp(
          tx,
          change.userIds.map((userId) => ({ userId, kind: "reminder" as const, taskId: change.taskId, slotId: change.slotId ?? null, data: { escalationStep: step.step, percent: step.percent } })),
          at,
        );
      }
    }
  };
}
