import type { NextRequest } from "next/server";
import { handleAuthRequest } from "@/lib/server/auth";
import { requestHost } from "@/lib/server/request-guard";

/** `AUTH_URL`'s origin, when it is set and a URL. */
function configuredOrigin(): string | null {
  const configured = process.env.AUTH_URL?.trim();
  if (!configured) return null;
  try {
    return new URL(configured).origin;
  } catch {
    return null;
  }
}

/**
 * The request at the address the browser used: `AUTH_URL`'s origin when set (next-auth's signIn()
 * uses it too), else the host it came to. Next.js hands route handlers `localhost` for a loopback
 * host, and single sign-on must name the same callback to the provider at both of its steps.
 */
async function atPublicOrigin(request: NextRequest): Promise<Request> {
  const protocol = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || request.nextUrl.protocol.replace(/:$/, "");
  const host = requestHost(request.headers);
  const origin = configuredOrigin() ?? (host ? `${protocol}://${host}` : request.nextUrl.origin);
  const url = new URL(`${request.nextUrl.pathname}${request.nextUrl.search}`, origin);
  const body = request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer();
  return new Request(url, { method: request.method, headers: request.headers, body });
}

async function handle(request: NextRequest): Promise<Response> {
  return handleAuthRequest(await atPublicOrigin(request));
}

export { handle as GET, handle as POST };
