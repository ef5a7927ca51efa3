import { describe, expect, it } from "vitest";
import { privateCallbacksFromEnvironment } from "@/lib/asks/ask-webhooks";
import { isPrivateAddress, privateAddressOf } from "@/lib/asks/private-addresses";

describe("private callback addresses", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fd00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
  ])("%s is private", (address) => {
    expect(isPrivateAddress(address, [])).toBe(true);
  });

  it.each(["8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "not-an-address"])("%s is not", (address) => {
    expect(isPrivateAddress(address, [])).toBe(false);
  });

  it("an IP literal in the URL is checked without resolving, brackets and all", async () => {
    const resolve = async () => {
      throw new Error("resolved");
    };
    expect(await privateAddressOf(new URL("http://[::1]:8080/hooks"), resolve, [])).toEqual({ address: "::1", reason: "loopback" });
    expect(await privateAddressOf(new URL("http://127.0.0.1/hooks"), resolve, [])).toEqual({ address: "127.0.0.1", reason: "loopback" });
    expect(await privateAddressOf(new URL("https://8.8.8.8/hooks"), resolve, [])).toBeUndefined();
  });

  it("a host name is private when any of its addresses is", async () => {
    expect(await privateAddressOf(new URL("https://agent.example.test/"), async () => ["8.8.8.8", "10.0.0.7"], [])).toEqual({ address: "10.0.0.7", reason: "private" });
    expect(await privateAddressOf(new URL("https://agent.example.test/"), async () => ["8.8.8.8"], [])).toBeUndefined();
  });
});

describe("PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS", () => {
  it("unset, allows them in the demo and in development, refuses them in production on a real database", () => {
    expect(privateCallbacksFromEnvironment({})).toBe("allow");
    expect(privateCallbacksFromEnvironment({ NODE_ENV: "production" })).toBe("allow");
    expect(privateCallbacksFromEnvironment({ NODE_ENV: "development", DATABASE_URL: "postgres://db/parley" })).toBe("allow");
    expect(privateCallbacksFromEnvironment({ NODE_ENV: "production", DATABASE_URL: "postgres://db/parley" })).toBe("refuse");
  });

  it("true or false decides, whatever the mode", () => {
    expect(privateCallbacksFromEnvironment({ NODE_ENV: "production", DATABASE_URL: "postgres://db/parley", PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS: "true" })).toBe("allow");
    expect(privateCallbacksFromEnvironment({ PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS: " FALSE " })).toBe("refuse");
  });

  it("anything else stops start-up naming the variable", () => {
    expect(() => privateCallbacksFromEnvironment({ PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS: "sometimes" })).toThrow(/PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS must be true or false/);
  });
});
