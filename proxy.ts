import { type NextRequest, NextResponse } from "next/server";
import { refuseMalformedActionRequest, refuseMalformedUrl } from "@/lib/server/request-guard";
import { REQUEST_PATH_HEADER } from "@/lib/server/request-path";

/**
 * Refuses malformed requests with a 4xx where Next.js would answer them with a 500 (a path that does
 * not decode, a NUL character, a malformed server-action call), and passes the requested path to
 * server components, so a signed-out visitor can be sent to sign-in and back. Authorisation is not
 * decided here: pages, actions and route handlers check for themselves.
 */
export async function proxy(request: NextRequest) {
  const refused = refuseMalformedUrl(request) ?? (await refuseMalformedActionRequest(request));
  if (refused) return refused;
  // next-auth's routes need nothing else from here.
  if (request.nextUrl.pathname.startsWith("/api/auth/")) return NextResponse.next();
  const headers = new Headers(request.headers);
  headers.set(REQUEST_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/((?!_next/|favicon.ico).*)"],
};
