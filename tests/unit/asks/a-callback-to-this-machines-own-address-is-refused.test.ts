import { describe, expect, it, vi } from "vitest";

// A public address this machine pretends to have: classified only, never contacted.
const OWN_PUBLIC_IPV4 = "93.184.215.14";
const OWN_PUBLIC_IPV6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c";

vi.mock("node:os", async (original) => ({
  ...(await original<typeof import("node:os")>()),
  networkInterfaces: () => ({
    lo: [{ address: "127.0.0.1", netmask: "255.0.0.0", family: "IPv4", mac: "00:00:00:00:00:00", internal: true, cidr: "127.0.0.1/8" }],
    eth0: [
      { address: OWN_PUBLIC_IPV4, netmask: "255.255.255.0", family: "IPv4", mac: "02:42:ac:11:00:02", internal: false, cidr: `${OWN_PUBLIC_IPV4}/24` },
      { address: OWN_PUBLIC_IPV6, netmask: "ffff:ffff:ffff:ffff::", family: "IPv6", mac: "02:42:ac:11:00:02", internal: false, cidr: `${OWN_PUBLIC_IPV6}/64`, scopeid: 0 },
    ],
  }),
}));

const { privateAddressOf } = await import("@/lib/asks/private-addresses");

const noResolving = async (): Promise<string[]> => {
  throw new Error("resolved");
};

describe("a callback to this machine's own address", () => {
  it.each([
    [`http://${OWN_PUBLIC_IPV4}:3000/api/v1/asks`, OWN_PUBLIC_IPV4],
    [`http://[${OWN_PUBLIC_IPV6}]/`, OWN_PUBLIC_IPV6],
    [`http://[2606:2800:21f:cb07:6820:80da:af6b:8B2C]/`, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    [`http://[::ffff:${OWN_PUBLIC_IPV4}]/`, "::ffff:5db8:d70e"],
    [`http://[64:ff9b::${OWN_PUBLIC_IPV4}]/`, "64:ff9b::5db8:d70e"],
  ])("%s is refused, though the address is public", async (url, address) => {
    expect(await privateAddressOf(new URL(url), noResolving)).toMatchObject({ address, reason: expect.stringMatching(/this machine's own address/) });
  });

  it("is refused when a name resolves to it", async () => {
    expect(await privateAddressOf(new URL("https://parley.example.test/"), async () => ["8.8.8.8", OWN_PUBLIC_IPV4])).toEqual({ address: OWN_PUBLIC_IPV4, reason: "this machine's own address" });
  });

  it("leaves another public address alone", async () => {
    expect(await privateAddressOf(new URL("https://8.8.8.8/"), noResolving)).toBeUndefined();
  });
});
