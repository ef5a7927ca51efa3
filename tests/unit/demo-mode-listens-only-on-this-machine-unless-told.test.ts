import { describe, expect, it } from "vitest";
import { DEMO_HOSTNAME, listenAddress } from "@/scripts/listen-address.mjs";

const MACHINE = "build-box";

describe("where npm start listens", () => {
  it("is loopback in demo mode, and says so and why", () => {
    const listen = listenAddress({ PORT: "3310" }, [], MACHINE);
    expect(DEMO_HOSTNAME).toBe("127.0.0.1");
    expect(listen.args).toEqual(["-H", "127.0.0.1"]);
    expect(listen.message).toMatch(/listening on http:\/\/127\.0\.0\.1:3310 only \(this machine\), because the sign-in page shows the demo passwords/);
    expect(listen.message).toMatch(/HOSTNAME=0\.0\.0\.0/);
  });

  it("is loopback in demo mode when DATABASE_URL is set but blank", () => {
    expect(listenAddress({ DATABASE_URL: "  " }, [], MACHINE).args).toEqual(["-H", "127.0.0.1"]);
  });

  it("is what HOSTNAME names in demo mode, with a warning", () => {
    const listen = listenAddress({ HOSTNAME: "0.0.0.0" }, [], MACHINE);
    expect(listen.args).toEqual(["-H", "0.0.0.0"]);
    expect(listen.message).toMatch(/listening on 0\.0\.0\.0:3000, as HOSTNAME says\. Anyone who can reach that address sees the demo passwords/);
  });

  it("stays loopback when HOSTNAME is only this machine's name, as shells and containers set it", () => {
    expect(listenAddress({ HOSTNAME: MACHINE }, [], MACHINE).args).toEqual(["-H", "127.0.0.1"]);
  });

  it("is what --hostname or -H on the command line says in demo mode", () => {
    for (const args of [["--hostname", "0.0.0.0"], ["--hostname=0.0.0.0"], ["-H", "::"], ["-H0.0.0.0"]]) {
      const listen = listenAddress({ HOSTNAME: "10.0.0.1" }, args, MACHINE);
      expect(listen.args, args.join(" ")).toEqual([]);
      expect(listen.message).toMatch(/where --hostname says/);
    }
  });

  it("is left to next start, every interface, with a database", () => {
    expect(listenAddress({ DATABASE_URL: "postgres://db/parley" }, [], MACHINE)).toEqual({ args: [], message: null });
  });
});
