import { describe, expect, it } from "vitest";
import { workerWanted } from "@/lib/app-runtime";

const DATABASE_URL = "postgres://parley@127.0.0.1/parley";

describe("PARLEY_WORKER", () => {
  it("runs the worker unless told off", () => {
    expect(workerWanted({ DATABASE_URL })).toBe(true);
    expect(workerWanted({ DATABASE_URL, PARLEY_WORKER: " on " })).toBe(true);
    expect(workerWanted({ DATABASE_URL, PARLEY_WORKER: "OFF" })).toBe(false);
  });

  it("refuses off on the embedded database, where nothing else would run the work", () => {
    expect(() => workerWanted({ PARLEY_WORKER: "off" })).toThrow("PARLEY_WORKER=off needs DATABASE_URL");
  });

  it("refuses anything but on and off, naming the variable", () => {
    expect(() => workerWanted({ DATABASE_URL, PARLEY_WORKER: "no" })).toThrow('PARLEY_WORKER must be "on" or "off" (it is "no").');
  });
});
