import { type NextRequest, NextResponse } from "next/server";
import { REQUEST_PATH_HEADER } from "@/lib/server/request-path";

/**
 * Passes the requested path to server components, so a signed-out visitor can be sent to sign-in and
 * back. Authorisation is not decided here: pages, actions and route handlers check for themselves.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(REQUEST_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/((?!_next/|api/auth/|favicon.ico).*)"],
};
