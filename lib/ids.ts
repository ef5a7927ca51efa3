import { randomFillSync } from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value from outside (a URL, a form, a session) is a well-formed id. Checked before any
 * query, so a mangled id is a plain "not found" rather than a database error.
 */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

let lastMillis = 0;
let sequence = 0;
/** Random bytes drawn a few kilobytes at a time, not 16 per id. */
const pool = Buffer.alloc(4096);
let pooled = pool.length;

function randomSixteen(): Buffer {
  if (pooled + 16 > pool.length) {
    randomFillSync(pool);
    pooled = 0;
  }
  pooled += 16;
  return Buffer.from(pool.subarray(pooled - 16, pooled));
}

/**
 * A new id that sorts by the time it was made (UUID version 7: 48 bits of milliseconds, then
 * random bits; within one millisecond a counter keeps this process's ids in order). Rows keyed by
 * such ids are added at the end of their indexes, so inserting touches the same few index pages
 * rather than a random page each time — which keeps write-ahead log per insert small and flat as
 * tables grow (a random page must be logged whole the first time it is touched after a checkpoint).
 */
export function newTimeOrderedId(now: number = Date.now()): string {
  if (now > lastMillis) {
    lastMillis = now;
    sequence = 0;
  } else {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMillis += 1;
  }
  const bytes = randomSixteen();
  let millis = lastMillis;
  for (let index = 5; index >= 0; index--) {
    bytes[index] = millis % 256;
    millis = Math.floor(millis / 256);
  }
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
