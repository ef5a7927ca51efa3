import { describe, expect, it } from "vitest";
import { isUuid, newTimeOrderedId } from "@/lib/ids";

describe("time-ordered ids", () => {
  it("are well-formed version 7 UUIDs", () => {
    const id = newTimeOrderedId();
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe("7");
    expect("89ab").toContain(id[19]);
  });

  it("sort in the order they were made, also within one millisecond", () => {
    const ids = Array.from({ length: 5_000 }, () => newTimeOrderedId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("carry the time they were made in their first 48 bits", () => {
    const at = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const id = newTimeOrderedId(at);
    expect(Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBeGreaterThanOrEqual(at);
  });
});
