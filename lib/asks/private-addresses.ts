// A callback URL is the caller's: Parley's server POSTs to whatever it names. Addresses a caller on
// the internet should not reach through Parley — loopback, private networks, link-local (cloud
// metadata at 169.254.169.254) — are recognised here so a deployment can refuse them.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 itself reaches the local host
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv6");
}

/**
 * Whether an IP address is one a callback should not reach when private callbacks are refused:
 * loopback, private, carrier-grade NAT, link-local, unspecified, multicast or reserved. IPv4-mapped
 * IPv6 addresses (`::ffff:127.0.0.1`) count as the IPv4 address they carry. Not an IP: false.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** How a host name is resolved to its addresses (every one, IPv4 and IPv6). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The system resolver, as `fetch` itself resolves names. */
export const resolveHost: ResolveHost = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The private address `url`'s host is or resolves to, or undefined when every address is public.
 * Throws when the name cannot be resolved (the caller reports that as a failure to retry).
 *
 * The check and the request resolve the name separately, so a host that answers differently the
 * second time (DNS rebinding) can still slip through: this keeps honest mistakes and casual probing
 * out, and a network that must be sealed off should also be closed to Parley by a firewall.
 */
export async function privateAddressOf(url: URL, resolve: ResolveHost = resolveHost): Promise<string | undefined> {
  // An IPv6 literal comes bracketed in a URL's hostname.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = isIP(host) ? [host] : await resolve(host);
  return addresses.find(isPrivateAddress);
}
