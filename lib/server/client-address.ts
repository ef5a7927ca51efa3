import { Server } from "node:http";
import { isIP } from "node:net";

/**
 * The header carrying the address of the socket a request came in on, set by this server for every
 * request (whatever a client sent under that name is overwritten). Parley trusts no
 * `X-Forwarded-For`: Next.js passes on whatever a client puts there, so the socket is the only
 * address a client cannot choose. Behind a reverse proxy that is the proxy's address.
 */
export const CLIENT_ADDRESS_HEADER = "x-parley-client-address";

const INSTALLED = Symbol.for("parley.client-address");

/**
 * Makes every request this process's HTTP servers receive carry {@link CLIENT_ADDRESS_HEADER}:
 * Next.js gives route handlers and actions the request's headers but not its socket. Called once at
 * start (instrumentation); servers created before it are covered too.
 */
export function recordClientAddresses(): void {
  const prototype = Server.prototype as Server & { [INSTALLED]?: boolean };
  if (prototype[INSTALLED]) return;
  prototype[INSTALLED] = true;
  const emit = prototype.emit;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as { headers: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string } };
      const address = request.socket?.remoteAddress;
      if (address) request.headers[CLIENT_ADDRESS_HEADER] = address;
      else delete request.headers[CLIENT_ADDRESS_HEADER];
    }
    return (emit as (...all: unknown[]) => boolean).apply(this, [event, ...args]);
  } as typeof prototype.emit;
}

/** The client's address as {@link recordClientAddresses} recorded it (IPv4-mapped IPv6 shown as IPv4), or null when unknown. */
export function clientAddress(headers: Pick<Headers, "get">): string | null {
  const value = headers.get(CLIENT_ADDRESS_HEADER)?.trim();
  if (!value || !isIP(value)) return null;
  return value.startsWith("::ffff:") && isIP(value.slice(7)) === 4 ? value.slice(7) : value;
}
