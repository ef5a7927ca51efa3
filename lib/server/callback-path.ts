// Any origin serves: a path is resolved against it only to see whether it stays there.
const PLACEHOLDER_ORIGIN = "http://parley.invalid";

/**
 * Where to go after sign-in: a path on this site, never another origin (an open redirect would let a
 * link to Parley's sign-in page send people anywhere). The value is parsed as a URL against the site,
 * as a browser would, and only its path, query and fragment are kept, re-serialised: a TAB, CR or LF
 * (which browsers drop, so `/\t/evil.example` is `//evil.example`) or a backslash cannot lead away,
 * and nothing that cannot go in a Location header comes out.
 */
export function safeCallbackPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/")) return "/";
  let target: URL;
  try {
    target = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return "/";
  }
  if (target.origin !== PLACEHOLDER_ORIGIN) return "/";
  // `/.//evil.example` resolves to the path `//evil.example`, which a browser reads as another host.
  if (target.pathname.startsWith("//")) return "/";
  if (target.pathname.startsWith("/login")) return "/";
  return `${target.pathname}${target.search}${target.hash}`;
}
