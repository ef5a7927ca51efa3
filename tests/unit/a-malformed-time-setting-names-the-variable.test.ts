import { describe, expect, it } from "vitest";
import { millisecondsSetting } from "@/lib/app-runtime";

describe("a time setting from the environment (PARLEY_JOB_LEASE_MS, PARLEY_TURN_TIMEOUT_MS)", () => {
  it("left unset takes the runtime's default", () => {
    expect(millisecondsSetting({ PARLEY_TURN_TIMEOUT_MS: "  " }, "PARLEY_TURN_TIMEOUT_MS", 100)).toBeUndefined();
  });

  it("given as a whole number of milliseconds is used", () => {
    expect(millisecondsSetting({ PARLEY_JOB_LEASE_MS: " 2000 " }, "PARLEY_JOB_LEASE_MS", 100)).toBe(2000);
  });

  it.each(["30s", "1.5", "50", "-1"])("given as %j stops the server, naming the variable and what it must be", (value) => {
    expect(() => millisecondsSetting({ PARLEY_JOB_LEASE_MS: value }, "PARLEY_JOB_LEASE_MS", 100)).toThrow(
      `PARLEY_JOB_LEASE_MS must be a whole number of milliseconds, at least 100 (it is "${value}").`,
    );
  });
});
