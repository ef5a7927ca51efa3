import { type Db } from "@/db/client";
import { getDatabase } from "@/lib/database";
import { listen, notify, notifyAll } from "@/db/notifications";
import type { Role } from "@/lib/auth/roles";

/** The channel every live update travels on, across all app instances sharing one database. */
export const LIVE_CHANNEL = "parley_live";

/**
 * Something changed that open screens may want to show. It carries ids and a kind, never content:
 * screens re-read what they show, through the same authorised queries as on first load.
 */
export interface LiveEvent {
  /** noun-verb, e.g. `person-away-changed`, `question-asked`, `slot-finished`. */
  kind: string;
  taskId?: string;
  questionId?: string;
  /** Who may hear of it: these people, and everyone holding one of these roles. */
  audience: { userIds?: string[]; roles?: Role[] };
}

/** What a browser receives: the event without its audience. */
export type LiveEventForBrowser = Omit<LiveEvent, "audience">;

/** Whether `user` is in the audience of `event`. */
export function isInAudience(user: { id: string; roles: readonly Role[] }, event: LiveEvent): boolean {
  return Boolean(event.audience.userIds?.includes(user.id) || event.audience.roles?.some((role) => user.roles.includes(role)));
}

/**
 * Announces `event`. Pass the transaction that made the change: the event then goes out only if it
 * commits, and never before the change can be read.
 */
export async function publishLiveEvent(db: Db, event: LiveEvent): Promise<void> {
  await notify(db, LIVE_CHANNEL, JSON.stringify(event));
}

/** Announces several events in one statement; like {@link publishLiveEvent}, only if the transaction commits. */
export async function publishLiveEvents(db: Db, events: readonly LiveEvent[]): Promise<void> {
  await notifyAll(db, LIVE_CHANNEL, events.map((event) => JSON.stringify(event)));
}

type Handler = (event: LiveEvent) => void;

const HUB_KEY = Symbol.for("parley.live-events");
type GlobalWithHub = typeof globalThis & { [HUB_KEY]?: { handlers: Set<Handler>; listening?: Promise<unknown> } };

/**
 * Calls `handler` for every live event this process hears. One database listener per process fans out
 * to every subscriber, however many browsers are connected. Returns how to unsubscribe.
 */
export async function subscribeLiveEvents(handler: Handler): Promise<() => void> {
  const store = globalThis as GlobalWithHub;
  const hub = (store[HUB_KEY] ??= { handlers: new Set() });
  hub.listening ??= getDatabase()
    .then((database) =>
      listen(database, LIVE_CHANNEL, (payload) => {
        let event: LiveEvent;
        try {
          event = JSON.parse(payload) as LiveEvent;
        } catch {
          return;
        }
        for (const each of hub.handlers) each(event);
      }),
    )
    .catch((error: unknown) => {
      hub.listening = undefined;
      throw error;
    });
  hub.handlers.add(handler);
  try {
    await hub.listening;
  } catch (error) {
    hub.handlers.delete(handler);
    throw error;
  }
  return () => {
    hub.handlers.delete(handler);
  };
}
