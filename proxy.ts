import { type NextRequest, NextResponse } from "next/server";
import { oidcConfig } from "@/lib/config";
import { refuseMalformedActionRequest, refuseMalformedUrl } from "@/lib/server/request-guard";
import { REQUEST_PATH_HEADER } from "@/lib/server/request-path";
import { commonSecurityHeaders, contentSecurityPolicy, newNonce, originOf } from "@/lib/server/security-headers";

/**
 * Refuses malformed requests with a 4xx where Next.js would answer them with a 500 (a path that does
 * not decode, a NUL character, a malformed server-action call), passes the requested path to server
 * components, so a signed-out visitor can be sent to sign-in and back, and gives every response its
 * security headers — a page its Content-Security-Policy with a nonce of its own. Authorisation is not
 * decided here: pages, actions and route handlers check for themselves.
 */
export async function proxy(request: NextRequest) {
  const https = servedOverHttps(request);
  const refused = refuseMalformedUrl(request) ?? (await refuseMalformedActionRequest(request));
  if (refused) return secured(refused, https, API_POLICY);
  // next-auth's routes need nothing else from here; its few pages of its own (sign-out) use inline styles.
  if (request.nextUrl.pathname.startsWith("/api/auth/")) return secured(NextResponse.next(), https, "frame-ancestors 'none'");
  const headers = new Headers(request.headers);
  headers.set(REQUEST_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  if (request.nextUrl.pathname.startsWith("/api/")) return secured(NextResponse.next({ request: { headers } }), https, API_POLICY);
  const policy = contentSecurityPolicy(newNonce(), {
    development: process.env.NODE_ENV === "development",
    https,
    formTargets: originOf(oidcConfig()?.issuer),
  });
  // Next.js reads the nonce from the request's policy and writes it on every script of the page.
  headers.set("Content-Security-Policy", policy);
  return secured(NextResponse.next({ request: { headers } }), https, policy);
}

/** The API answers JSON and event streams: nothing in them may load or run anything. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

function secured(response: Response, https: boolean, policy: string): Response {
  for (const [name, value] of Object.entries(commonSecurityHeaders({ https }))) response.headers.set(name, value);
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

/** Over https, directly or behind a proxy that says so (as links Parley hands out take it). */
function servedOverHttps(request: NextRequest): boolean {
  return request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

export const config = {
  matcher: ["/((?!_next/|favicon.ico).*)"],
};
