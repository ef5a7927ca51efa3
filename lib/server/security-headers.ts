/**
 * The headers every response carries, and the Content-Security-Policy of a page. Pages are rendered
 * per request (they read the session), so each gets a fresh nonce: Next.js reads it from the policy
 * on the request and puts it on the scripts it writes, and no other inline script runs.
 */

/** What the policy depends on besides the nonce. */
export interface PolicyOptions {
  /** `next dev` evaluates code for its error overlay; a production server never does. */
  development: boolean;
  /** Served over https: ask the browser to upgrade anything that is not. */
  https: boolean;
  /**
   * Origins a form may lead to besides this one: the single sign-on provider, which signing in through
   * it redirects the browser to (browsers hold a form's redirects to `form-action`).
   */
  formTargets: readonly string[];
}

/** A nonce for one response: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** The Content-Security-Policy of a page rendered with `nonce`. */
export function contentSecurityPolicy(nonce: string, options: PolicyOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // The live updates (EventSource) and server actions go to this origin only.
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${options.formTargets.map((origin) => ` ${origin}`).join("")}`,
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** HSTS for a year, sent only on responses served over https (over http a browser ignores it anyway). */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** Headers for every response, page or not. */
export function commonSecurityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    ...(options.https ? { "Strict-Transport-Security": STRICT_TRANSPORT_SECURITY } : {}),
  };
}

/** The origin of a URL, or nothing when it is not one (a misconfigured issuer is reported elsewhere). */
export function originOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? [] : [origin];
  } catch {
    return [];
  }
}
