import { sql } from "drizzle-orm";
import type { Database, Db } from "./client";

// LISTEN takes an identifier, not a parameter: only plain names are accepted.
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): string {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`invalid notification channel name: ${channel}`);
  return channel;
}

/** NOTIFY refuses payloads of 8000 bytes or more: send ids and kinds, and let readers fetch the rest. */
export const MAX_NOTIFICATION_BYTES = 7_900;

/**
 * Sends a notification on `channel`. Called with a transaction, it is delivered only if and when that
 * transaction commits — so nobody hears of a change that was rolled back.
 */
export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  if (Buffer.byteLength(payload) > MAX_NOTIFICATION_BYTES) throw new Error("notification payload too large");
  await db.execute(sql`select pg_notify(${checkChannel(channel)}, ${payload})`);
}

/** Sends several notifications on `channel` in one statement; like {@link notify}, delivered only on commit. */
export async function notifyAll(db: Db, channel: string, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return;
  if (payloads.some((payload) => Buffer.byteLength(payload) > MAX_NOTIFICATION_BYTES)) throw new Error("notification payload too large");
  if (payloads.length === 1) return notify(db, channel, payloads[0]!);
  await db.execute(sql`select pg_notify(${checkChannel(channel)}, p.value) from jsonb_array_elements_text(${JSON.stringify(payloads)}::jsonb) as p(value)`);
}

/**
 * Calls `onPayload` for every notification on `channel`: PostgreSQL's LISTEN (so every app instance
 * on one server hears every other), or PGlite's in-process equivalent. Returns how to stop.
 */
export async function listen(database: Database, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  checkChannel(channel);
  if (database.pglite) {
    const unsubscribe = await database.pglite.listen(channel, onPayload);
    return () => unsubscribe();
  }
  const { unlisten } = await database.postgres!.listen(channel, onPayload);
  return unlisten;
}
