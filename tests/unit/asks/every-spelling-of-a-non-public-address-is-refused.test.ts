import { describe, expect, it } from "vitest";
import { addressBytes, nonPublicReason, privateAddressOf } from "@/lib/asks/private-addresses";

// Classified only: no test here sends anything to any address.

/** Addresses a callback may not reach when private callbacks are refused, and the words that say why. */
const REFUSED: [string, RegExp][] = [
  // IPv4-embedded IPv6, in every spelling a URL or a resolver may give.
  ["::127.0.0.1", /IPv4-compatible/],
  ["::7f00:1", /IPv4-compatible/],
  ["::8.8.8.8", /IPv4-compatible/],
  ["::ffff:127.0.0.1", /IPv4-mapped 127\.0\.0\.1, loopback/],
  ["::ffff:7f00:1", /IPv4-mapped 127\.0\.0\.1, loopback/],
  ["0:0:0:0:0:ffff:a9fe:a9fe", /IPv4-mapped 169\.254\.169\.254, link-local/],
  ["::FFFF:10.0.0.1", /IPv4-mapped 10\.0\.0\.1, private/],
  ["64:ff9b::7f00:1", /NAT64 127\.0\.0\.1, loopback/],
  ["64:ff9b::127.0.0.1", /NAT64 127\.0\.0\.1, loopback/],
  ["64:ff9b::a9fe:a9fe", /NAT64 169\.254\.169\.254/],
  ["64:ff9b::c0a8:101", /NAT64 192\.168\.1\.1, private/],
  ["64:ff9b:1::8.8.8.8", /local-use NAT64/],
  ["64:ff9b:1:ffff::1", /local-use NAT64/],
  ["2002:7f00:1::", /6to4 127\.0\.0\.1, loopback/],
  ["2002:a00:1::1", /6to4 10\.0\.0\.1, private/],
  ["2002:c0a8:101:1::", /6to4 192\.168\.1\.1/],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /Teredo/],
  // IPv4 special-purpose ranges.
  ["0.0.0.0", /this network/],
  ["127.8.9.10", /loopback/],
  ["10.255.255.255", /private/],
  ["172.16.0.1", /private/],
  ["172.31.255.255", /private/],
  ["192.168.0.1", /private/],
  ["100.64.0.1", /carrier-grade NAT/],
  ["100.127.255.254", /carrier-grade NAT/],
  ["169.254.169.254", /link-local/],
  ["192.0.0.8", /IETF protocol assignments/],
  ["192.0.2.1", /documentation/],
  ["198.51.100.7", /documentation/],
  ["203.0.113.9", /documentation/],
  ["198.18.0.1", /benchmarking/],
  ["198.19.255.255", /benchmarking/],
  ["192.88.99.1", /reserved/],
  ["224.0.0.1", /multicast/],
  ["239.255.255.250", /multicast/],
  ["240.0.0.1", /reserved/],
  ["255.255.255.255", /reserved, broadcast/],
  // IPv6 special-purpose ranges.
  ["::", /unspecified/],
  ["::1", /loopback/],
  ["0:0:0:0:0:0:0:1", /loopback/],
  ["fd12:3456::1", /unique local/],
  ["fc00::1", /unique local/],
  ["fe80::1", /link-local/],
  ["fe80::1%eth0", /link-local/],
  ["ff02::1", /multicast/],
  ["100::1", /reserved/],
  ["fec0::1", /reserved/],
  ["2001:db8::1", /documentation/],
  ["3fff::1", /documentation/],
  ["2001:2::1", /benchmarking/],
];

/** Public addresses, which are allowed: the embedded forms of a public IPv4 address among them. */
const ALLOWED = [
  "8.8.8.8",
  "1.1.1.1",
  "100.63.255.255",
  "100.128.0.0",
  "172.15.255.255",
  "172.32.0.1",
  "192.0.1.255",
  "198.17.255.255",
  "198.20.0.0",
  "223.255.255.255",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
  "::ffff:808:808",
  "64:ff9b::8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

describe("an address is judged by its bytes, whatever its spelling", () => {
  it.each(REFUSED)("%s is refused", (address, why) => {
    expect(nonPublicReason(address, [])).toMatch(why);
  });

  it.each(ALLOWED)("%s is public", (address) => {
    expect(nonPublicReason(address, [])).toBeUndefined();
  });

  it.each([
    ["::127.0.0.1", "::7f00:1"],
    ["::ffff:127.0.0.1", "0:0:0:0:0:ffff:7f00:0001"],
    ["64:ff9b::192.168.1.1", "64:ff9b:0:0:0:0:c0a8:101"],
    ["1::", "1:0:0:0:0:0:0:0"],
    ["::", "0:0:0:0:0:0:0:0"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
    ["1:2::7:8", "1:2:0:0:0:0:7:8"],
  ])("%s and %s are the same address", (one, other) => {
    expect(addressBytes(one)).toEqual(addressBytes(other));
    expect(addressBytes(one)).toHaveLength(16);
  });

  it("is not an address when it is a name", () => {
    expect(addressBytes("callback.example.test")).toBeUndefined();
    expect(nonPublicReason("callback.example.test", [])).toBeUndefined();
  });

  it.each(["http://[::127.0.0.1]/hooks", "http://[64:ff9b::7f00:1]/hooks", "http://[::ffff:127.0.0.1]/hooks", "http://0x7f.1/hooks", "http://2130706433/hooks", "http://[2002:7f00:1::]/"])(
    "%s, as a URL normalises it, is refused without resolving anything",
    async (url) => {
      const resolve = async () => {
        throw new Error("resolved");
      };
      expect(await privateAddressOf(new URL(url), resolve, [])).toMatchObject({ reason: expect.stringMatching(/loopback|IPv4-compatible/) });
    },
  );
});
