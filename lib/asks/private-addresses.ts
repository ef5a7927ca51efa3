// A callback URL is the caller's: Parley's server POSTs to whatever it names. Addresses a caller on
// the internet should not reach through Parley — loopback, private networks, link-local (cloud
// metadata at 169.254.169.254), the special-purpose ranges, this machine's own addresses — are
// recognised here so a deployment can refuse them. An address is judged on its bytes, never its
// spelling: `[::127.0.0.1]`, `[::ffff:7f00:1]` and `[64:ff9b::7f00:1]` all carry 127.0.0.1.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";

type Range = { bytes: number[]; prefix: number; why: string };

function range(network: string, prefix: number, why: string): Range {
  return { bytes: addressBytes(network)!, prefix, why };
}

/** IPv4 ranges that are not public unicast (IANA's special-purpose registry, RFC 6890 and after). */
const IPV4_SPECIAL: Range[] = [
  range("0.0.0.0", 8, `"this network" (0.0.0.0 reaches this machine)`),
  range("10.0.0.0", 8, "private"),
  range("100.64.0.0", 10, "carrier-grade NAT"),
  range("127.0.0.0", 8, "loopback"),
  range("169.254.0.0", 16, "link-local (cloud metadata)"),
  range("172.16.0.0", 12, "private"),
  range("192.0.0.0", 24, "IETF protocol assignments"),
  range("192.0.2.0", 24, "documentation"),
  range("192.88.99.0", 24, "reserved (former 6to4 relays)"),
  range("192.168.0.0", 16, "private"),
  range("198.18.0.0", 15, "benchmarking"),
  range("198.51.100.0", 24, "documentation"),
  range("203.0.113.0", 24, "documentation"),
  range("224.0.0.0", 4, "multicast"),
  range("240.0.0.0", 4, "reserved, broadcast"),
];

/** IPv6 forms that carry an IPv4 address, and where: the address is judged by the one it carries. */
const IPV4_CARRIERS: (Range & { at: number })[] = [
  { ...range("::ffff:0:0", 96, "IPv4-mapped"), at: 12 },
  { ...range("64:ff9b::", 96, "NAT64"), at: 12 },
  { ...range("2002::", 16, "6to4"), at: 2 },
];

/** Global unicast: every public IPv6 address is in it (outside it: loopback, unique local, link-local, multicast, reserved…). */
const IPV6_GLOBAL_UNICAST = range("2000::", 3, "");

/** IPv6 ranges inside global unicast that are not public. */
const IPV6_SPECIAL: Range[] = [
  // Teredo (2001::/32) included: it tunnels to the IPv4 addresses it hides, and no receiver lives there now.
  range("2001::", 23, "IETF protocol assignments (Teredo, benchmarking…)"),
  range("2001:db8::", 32, "documentation"),
  range("3fff::", 20, "documentation"),
];

/** What an IPv6 address outside global unicast is, for the message; the first that matches. */
const IPV6_OUTSIDE_GLOBAL_UNICAST: Range[] = [
  range("::1", 128, "loopback"),
  range("::", 128, "unspecified"),
  range("::", 96, "IPv4-compatible (deprecated)"),
  range("64:ff9b:1::", 48, "local-use NAT64"),
  range("fc00::", 7, "unique local"),
  range("fe80::", 10, "link-local"),
  range("ff00::", 8, "multicast"),
];

/**
 * An address as its bytes: 4 for IPv4, 16 for IPv6 (an IPv4 tail, `::ffff:1.2.3.4`, as its two
 * groups; a zone, `fe80::1%eth0`, dropped). Not an IP address: undefined.
 */
export function addressBytes(address: string): number[] | undefined {
  const text = address.replace(/%.*$/, "");
  const family = isIP(text);
  if (family === 4) return text.split(".").map(Number);
  if (family !== 6) return undefined;
  // Valid IPv6 from here (isIP said so): at most one `::`, and a dotted tail only as the last 32 bits.
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  const hex = tail.includes(".") ? `${text.slice(0, lastColon + 1)}${groupsOfIPv4(tail)}` : text;
  const [head, rest] = hex.split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const before = groups(head);
  const after = groups(rest);
  const all = rest === undefined ? before : [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

function groupsOfIPv4(dotted: string): string {
  const [a, b, c, d] = dotted.split(".").map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function inRange(bytes: number[], { bytes: network, prefix }: Range): boolean {
  if (bytes.length !== network.length) return false;
  for (let bit = 0; bit < prefix; bit += 8) {
    const width = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - width)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (network[bit / 8]! & mask)) return false;
  }
  return true;
}

function ipv4Text(bytes: number[]): string {
  return bytes.join(".");
}

/** The addresses of this machine's network interfaces, loopback and all. */
export function ownAddresses(): string[] {
  try {
    return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
  } catch {
    // Some sandboxes cannot list interfaces; loopback and the private ranges are refused all the same.
    return [];
  }
}

/**
 * Why `address` is not one a callback may reach when private callbacks are refused — loopback,
 * private, carrier-grade NAT, link-local, unspecified, multicast, documentation, benchmarking,
 * reserved, or one of `own` (this machine's addresses) — or undefined when it is a public address.
 * IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`) addresses are judged
 * by the IPv4 address they carry; IPv4-compatible (`::a.b.c.d`) and local-use NAT64 (`64:ff9b:1::/48`)
 * are never public. Not an IP address: undefined.
 */
export function nonPublicReason(address: string, own: readonly string[] = ownAddresses()): string | undefined {
  const bytes = addressBytes(address);
  if (!bytes) return undefined;
  const ownKeys = new Set(own.map((each) => addressBytes(each)?.join(",")).filter((key) => key !== undefined));
  const judgeIPv4 = (ipv4: number[]): string | undefined =>
    IPV4_SPECIAL.find((special) => inRange(ipv4, special))?.why ?? (ownKeys.has(ipv4.join(",")) ? "this machine's own address" : undefined);

  if (bytes.length === 4) return judgeIPv4(bytes);
  if (ownKeys.has(bytes.join(","))) return "this machine's own address";
  const carrier = IPV4_CARRIERS.find((each) => inRange(bytes, each));
  if (carrier) {
    const ipv4 = bytes.slice(carrier.at, carrier.at + 4);
    const why = judgeIPv4(ipv4);
    return why ? `${carrier.why} ${ipv4Text(ipv4)}, ${why}` : undefined;
  }
  if (!inRange(bytes, IPV6_GLOBAL_UNICAST)) return IPV6_OUTSIDE_GLOBAL_UNICAST.find((special) => inRange(bytes, special))?.why ?? "reserved";
  return IPV6_SPECIAL.find((special) => inRange(bytes, special))?.why;
}

/** Whether `address` is one a callback should not reach when private callbacks are refused (see {@link nonPublicReason}). */
export function isPrivateAddress(address: string, own?: readonly string[]): boolean {
  return nonPublicReason(address, own) !== undefined;
}

/** How a host name is resolved to its addresses (every one, IPv4 and IPv6). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The system resolver, as `fetch` itself resolves names. */
export const resolveHost: ResolveHost = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** An address a callback's host is or resolves to that is not public, and why. */
export interface NonPublicAddress {
  address: string;
  reason: string;
}

/**
 * The first address `url`'s host is or resolves to that is not public, or undefined when every one
 * is. Throws when the name cannot be resolved (the caller reports that as a failure to retry).
 * `own` lists this machine's addresses (read afresh on each call by default: they change).
 *
 * The check and the request resolve the name separately, so a host that answers differently the
 * second time (DNS rebinding) can still slip through: this keeps honest mistakes and casual probing
 * out, and a network that must be sealed off should also be closed to Parley by a firewall.
 */
export async function privateAddressOf(url: URL, resolve: ResolveHost = resolveHost, own: readonly string[] = ownAddresses()): Promise<NonPublicAddress | undefined> {
  // An IPv6 literal comes bracketed in a URL's hostname.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = isIP(host) ? [host] : await resolve(host);
  for (const address of addresses) {
    const reason = nonPublicReason(address, own);
    if (reason) return { address, reason };
  }
  return undefined;
}
