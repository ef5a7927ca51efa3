/** Host names of this machine's loopback interface, as a URL's `hostname` spells them. */
function isLoopbackHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Whether an MCP request's `Origin` header may reach the MCP server — the spec's defence against DNS
 * rebinding, which every server MUST have (403 otherwise). No header is allowed: clients that are not
 * browsers send none. A browser's is allowed when it is Parley's own configured address
 * (`PARLEY_PUBLIC_URL`, `AUTH_URL`) or a page on this machine's loopback interface — never because it
 * matches the request's `Host`: in a rebinding attack both name the attacker's domain.
 */
export function isAllowedOrigin(origin: string | null, env: Record<string, string | undefined> = process.env): boolean {
  if (origin === null) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (a sandboxed page, a file) and anything else that is no origin.
    return false;
  }
  if ((url.protocol === "http:" || url.protocol === "https:") && isLoopbackHostname(url.hostname)) return true;
  return [env.PARLEY_PUBLIC_URL, env.AUTH_URL].some((configured) => {
    if (!configured?.trim()) return false;
    try {
      return new URL(configured.trim()).origin === url.origin;
    } catch {
      return false;
    }
  });
}
