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

/** The event a stream closed for being its person's oldest ends with: the browser then stops, rather than reconnect and close another. */
export const STREAM_REPLACED_EVENT = "replaced";

/** How many live-event streams one person may hold open on one server; opening one more closes their oldest. */
export const MAX_LIVE_STREAMS_PER_PERSON = 10;

const STREAMS_KEY = Symbol.for("parley.live-streams");
type GlobalWithStreams = typeof globalThis & { [STREAMS_KEY]?: Map<string, Set<() => void>> };

/**
 * Counts a stream opened for `personId` against their limit: when they already hold `limit`, their
 * oldest is closed (through its `close`), so one person cannot hold a server's memory and
 * connections with a thousand tabs or a script. Returns how to count the stream out when it ends
 * (calling it twice is harmless).
 */
export function admitLiveStream(personId: string, close: () => void, limit: number = MAX_LIVE_STREAMS_PER_PERSON): () => void {
  const store = globalThis as GlobalWithStreams;
  const byPerson = (store[STREAMS_KEY] ??= new Map());
  // A Set keeps insertion order: its first entry is the oldest stream.
  const streams = byPerson.get(personId) ?? new Set<() => void>();
  byPerson.set(personId, streams);
  const release = () => {
    streams.delete(close);
    if (streams.size === 0 && byPerson.get(personId) === streams) byPerson.delete(personId);
  };
  while (streams.size >= limit) {
    const oldest = streams.values().next().value!;
    streams.delete(oldest);
    oldest();
  }
  byPerson.set(personId, streams);
  streams.add(close);
  return release;
}

/** How many streams `personId` holds open on this server. */
export function liveStreamCount(personId: string): number {
  return (globalThis as GlobalWithStreams)[STREAMS_KEY]?.get(personId)?.size ?? 0;
}
