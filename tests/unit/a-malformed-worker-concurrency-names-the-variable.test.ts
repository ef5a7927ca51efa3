import { describe, expect, it } from "vitest";
import { countSetting } from "@/lib/app-runtime";

describe("how many jobs the worker runs at once (PARLEY_WORKER_CONCURRENCY)", () => {
  it("left unset takes the default", () => {
    expect(countSetting({ PARLEY_WORKER_CONCURRENCY: " " }, "PARLEY_WORKER_CONCURRENCY", 4, 64)).toBe(4);
  });

  it("given as a whole number in range is used", () => {
    expect(countSetting({ PARLEY_WORKER_CONCURRENCY: " 8 " }, "PARLEY_WORKER_CONCURRENCY", 4, 64)).toBe(8);
  });

  it.each(["0", "2.5", "65", "many"])("given as %j stops the server, naming the variable and what it must be", (value) => {
    expect(() => countSetting({ PARLEY_WORKER_CONCURRENCY: value }, "PARLEY_WORKER_CONCURRENCY", 4, 64)).toThrow(
      `PARLEY_WORKER_CONCURRENCY must be a whole number from 1 to 64 (it is "${value}").`,
    );
  });
});
