import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { admitLiveStream, liveStreamCount, MAX_LIVE_STREAMS_PER_PERSON } from "@/lib/live-events";

/** Opens a stream as the events route does: closing it counts it out. */
function open(personId: string, closed: number[], index: number) {
  let release = () => {};
  const close = () => {
    closed.push(index);
    release();
  };
  release = admitLiveStream(personId, close);
  return { close };
}

it("closes a person's oldest stream when they open one more than ten, and leaves everyone else's alone", () => {
  expect(MAX_LIVE_STREAMS_PER_PERSON).toBe(10);
  const sam = randomUUID();
  const priya = randomUUID();
  const closed: number[] = [];
  const priyas: number[] = [];
  open(priya, priyas, 0);
  const streams = Array.from({ length: 1_000 }, (_, index) => open(sam, closed, index));

  expect(liveStreamCount(sam)).toBe(10);
  expect(closed).toEqual(Array.from({ length: 990 }, (_, index) => index));
  expect(liveStreamCount(priya)).toBe(1);
  expect(priyas).toEqual([]);

  // A stream that ends by itself frees its place: the next one closes nothing.
  streams[995]!.close();
  expect(liveStreamCount(sam)).toBe(9);
  open(sam, closed, 1_000);
  expect(closed.at(-1)).toBe(995);
  expect(liveStreamCount(sam)).toBe(10);

  for (const stream of streams.slice(990)) stream.close();
  expect(liveStreamCount(sam)).toBe(1);
});
