import type { Db } from "@/db/client";
import { findApiAsksByIds, findAskCallbackEndpoint } from "@/db/queries/api-asks";
import { type NewOutboxEvent, queueEvents } from "@/db/queries/notification-outbox";
import type { OutboxEventKind } from "@/db/schema";
import { isDemoMode } from "@/lib/config";
import { type EventTarget, GLOBAL_WEBHOOK_TARGET, type StoredWebhookEvent } from "@/lib/notifications/outbox";
import { deliverWebhook, type DeliveryReport, hasUrlCredentials, type WebhookRetryOptions } from "@/lib/notifiers";
import type { Announce, RuntimeChangeKind } from "@/lib/runtime";
import { askView, type AskView } from "./ask-view";
import { type NonPublicAddress, privateAddressOf, type ResolveHost } from "./private-addresses";

/** The event types an API ask's end is sent as: answered, or closed with nothing (see `reason`). */
export type AskEventType = "ask.answered" | "ask.nothing";

/** The target name of an ask's own `callback_url`. */
export const CALLBACK_TARGET = "callback";

/** An ended ask's webhook event and the outbox kind it is kept under. */
export interface AskEvent {
  kind: OutboxEventKind;
  event: StoredWebhookEvent & { type: AskEventType; data: AskView };
}

/**
 * The webhook event of an ask that has ended, or undefined while it is open: `ask.answered` or
 * `ask.nothing`, at the moment it ended, its `data` the ask exactly as `GET /api/v1/asks/{id}`
 * returns it. Its id — `<ask id>:ask-answered` or `<ask id>:ask-nothing` — is the `webhook-id` of
 * every delivery, to every receiver: an ask ends once, so a receiver drops repeats by it.
 */
export function askEvent(view: AskView): AskEvent | undefined {
  if (view.status === "open") return undefined;
  const kind: OutboxEventKind = view.status === "answered" ? "ask-answered" : "ask-nothing";
  return {
    kind,
    event: {
      id: `${view.id}:${kind}`,
      type: view.status === "answered" ? "ask.answered" : "ask.nothing",
      timestamp: view.answered_at ?? view.created_at,
      data: view,
    },
  };
}

/** The changes after which an API ask may have ended: answered, closed with nothing (away, refused, cancelled), its slot expired. */
const ENDING_CHANGES: ReadonlySet<RuntimeChangeKind> = new Set(["question-answered", "question-closed", "slot-expired"]);

/** How ask events are queued. */
export interface AskEventOptions {
  /** The public origin question links point at: the same the API's views use. */
  baseUrl: string;
  /** Whether this instance has the global receiver (`PARLEY_WEBHOOK_URL`): its events are queued for it too. */
  global: boolean;
  now?: () => Date;
}

/**
 * An announce hook that queues an ended API ask's event, in the transaction that ended it: for its
 * `callback_url` when it gave one, and for the global receiver when `global`. The ask is read inside
 * that transaction, so the event carries the change itself (the answer, who answered, the reason),
 * and it exists exactly when the change commits. However often a change is announced, each target
 * gets one event per ask (a unique index on the outbox).
 */
export function queueAskEventsOnAskEnded(options: AskEventOptions): Announce {
  return async (tx: Db, changes) => {
    const taskIds = [...new Set(changes.filter((change) => ENDING_CHANGES.has(change.kind)).map((change) => change.taskId))];
    if (taskIds.length === 0) return;
    // An ApiAsk's task id is its ask's id; other workflows' tasks are simply not found.
    const asks = await findApiAsksByIds(tx, taskIds);
    const at = options.now?.() ?? new Date();
    const events: NewOutboxEvent[] = [];
    for (const ask of asks) {
      const ended = askEvent(askView(ask, options.baseUrl, at));
      if (!ended) continue;
      const targets = [...(ask.callbackUrl ? [CALLBACK_TARGET] : []), ...(options.global ? [GLOBAL_WEBHOOK_TARGET] : [])];
      for (const target of targets) events.push({ questionId: ask.questionId, kind: ended.kind, target, event: ended.event });
    }
    await queueEvents(tx, events, at);
  };
}

/** Whether a callback may go to an address that is not public: loopback, private, link-local, special-purpose, this machine's own. */
export type PrivateCallbacks = "allow" | "refuse";

/** How an ask's callbacks are delivered. */
export interface CallbackTargetOptions extends WebhookRetryOptions {
  /** Where the ask's `callback_url` and its key's `webhook_secret` are read, when each event is delivered. */
  db: Db;
  /** `refuse`: a callback whose host is or resolves to an address that is not public (see `nonPublicReason`) is not sent (see `privateCallbacksFromEnvironment`). */
  privateCallbacks: PrivateCallbacks;
  /** Resolves host names for that check (tests give their own). */
  resolve?: ResolveHost;
}

function notSent(reason: string, retryable = false): DeliveryReport {
  return {
    notifier: CALLBACK_TARGET,
    status: "failed",
    retryable,
    attempts: [{ attempt: 1, outcome: retryable ? "network-error" : "rejected", error: `not sent: ${reason}`, durationMs: 0 }],
  };
}

/**
 * The event target for asks' own callbacks: each event goes to its ask's `callback_url`, signed with
 * the `webhook_secret` of the API key that made the ask, through `deliverWebhook` (http(s) only,
 * redirects never followed, retried, never throwing). Both are read when the event is delivered, so
 * no secret waits in the outbox. Needs no configuration: every instance has it.
 */
export function askCallbackTarget(options: CallbackTargetOptions): EventTarget {
  const { db, privateCallbacks, resolve, ...retry } = options;
  return {
    name: CALLBACK_TARGET,
    async deliver(event) {
      const endpoint = await findAskCallbackEndpoint(db, event.questionId);
      if (!endpoint?.callbackUrl) return notSent("the ask has no callback_url");
      if (!endpoint.webhookSecret) return notSent("the API key that made the ask has no webhook secret");
      let url: URL;
      try {
        url = new URL(endpoint.callbackUrl);
      } catch {
        return notSent("the callback_url is not a URL");
      }
      // Checked again here, not only when the ask was made: the stored URL is the caller's and is what gets fetched.
      if (url.protocol !== "https:" && url.protocol !== "http:") return notSent(`the callback_url must be http or https, not ${url.protocol}`);
      // An ask stored before such URLs were refused: failed for good, before any lookup could make it look retryable.
      if (hasUrlCredentials(url)) return notSent("the callback_url carries a user name or password, which Parley never sends");
      if (privateCallbacks === "refuse") {
        let found: NonPublicAddress | undefined;
        try {
          found = await privateAddressOf(url, resolve);
        } catch (error) {
          // A name that does not resolve now may later, as a receiver that is down may come back.
          return notSent(`${url.hostname} could not be resolved (${error instanceof Error ? error.message : String(error)})`, true);
        }
        if (found) return notSent(`${url.hostname} is a private address (${found.address}: ${found.reason}); set PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS=true to allow it`);
      }
      return deliverWebhook({ ...retry, url, secret: endpoint.webhookSecret, message: event.message });
    },
  };
}

/**
 * Whether callbacks may reach private addresses, from `PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS`
 * (`true` or `false`). Unset: refused in production on a real database (`NODE_ENV=production` with
 * `DATABASE_URL`), where whoever holds an API key should not make Parley's server probe its own
 * network; allowed otherwise (the demo, development, tests), where the receiver is often on this
 * machine. Anything else stops start-up, naming the variable.
 */
export function privateCallbacksFromEnvironment(env: Record<string, string | undefined>): PrivateCallbacks {
  const configured = env.PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS?.trim().toLowerCase();
  if (!configured) return env.NODE_ENV === "production" && !isDemoMode(env) ? "refuse" : "allow";
  if (configured === "true") return "allow";
  if (configured === "false") return "refuse";
  throw new Error(`PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS must be true or false (it is "${env.PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS}").`);
}
