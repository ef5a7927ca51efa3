import { describe, expect, it } from "vitest";
import { serverNodeOptions } from "@/scripts/build-if-needed.mjs";

describe("the Node options `npm start` gives the server", () => {
  it("cap the old generation at 192 MB and the young generation's semi-spaces at 4 MB by default", () => {
    expect(serverNodeOptions({})).toBe("--max-old-space-size=192 --max-semi-space-size=4");
  });

  it("take the old generation's cap from PARLEY_MAX_HEAP_MB", () => {
    expect(serverNodeOptions({ PARLEY_MAX_HEAP_MB: " 256 " })).toBe("--max-old-space-size=256 --max-semi-space-size=4");
  });

  it("keep what NODE_OPTIONS already says, adding only what it leaves out", () => {
    expect(serverNodeOptions({ NODE_OPTIONS: "--inspect --max-old-space-size=512", PARLEY_MAX_HEAP_MB: "256" })).toBe("--inspect --max-old-space-size=512 --max-semi-space-size=4");
    expect(serverNodeOptions({ NODE_OPTIONS: "--max-semi-space-size=16" })).toBe("--max-semi-space-size=16 --max-old-space-size=192");
  });

  it.each(["lots", "1.5", "32"])("stop the server when PARLEY_MAX_HEAP_MB is %j, naming the variable", (value) => {
    expect(() => serverNodeOptions({ PARLEY_MAX_HEAP_MB: value })).toThrow(`PARLEY_MAX_HEAP_MB must be a whole number of megabytes, at least 64 (it is "${value}").`);
  });
});
