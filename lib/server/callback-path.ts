/**
 * Where to go after sign-in: a path on this site, never another origin (an open redirect would let a
 * link to Parley's sign-in page send people anywhere).
 */
export function safeCallbackPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (value.startsWith("/login")) return "/";
  return value;
}
