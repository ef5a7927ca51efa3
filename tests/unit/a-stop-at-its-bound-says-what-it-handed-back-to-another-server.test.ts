import { describe, expect, it } from "vitest";
import { stoppedAtBound } from "@/lib/server/shutdown";

describe("what a stop that reached its bound says", () => {
  it("names the jobs handed back, however few", () => {
    expect(stoppedAtBound(3_000, { finished: false, handedBack: 1, deliveriesHandedBack: 0 }, 0)).toBe(
      "Parley: stopped at its bound (3 s): 1 unfinished job was handed back for another server to run at once.",
    );
    expect(stoppedAtBound(20_000, { finished: false, handedBack: 0, deliveriesHandedBack: 0 }, 0)).toBe(
      "Parley: stopped at its bound (20 s): 0 unfinished jobs were handed back for another server to run at once.",
    );
  });

  it("names the deliveries still under way that another server sends at once, not jobs it had none of", () => {
    expect(stoppedAtBound(3_000, { finished: false, handedBack: 0, deliveriesHandedBack: 1 }, 0)).toBe(
      "Parley: stopped at its bound (3 s): 1 delivery still under way was handed back for another server to send at once.",
    );
  });

  it("names jobs, deliveries and the requests still being answered together", () => {
    expect(stoppedAtBound(20_000, { finished: false, handedBack: 2, deliveriesHandedBack: 3 }, 1)).toBe(
      "Parley: stopped at its bound (20 s): 2 unfinished jobs were handed back for another server to run at once; " +
        "3 deliveries still under way were handed back for another server to send at once; 1 request was still being answered.",
    );
  });
});
