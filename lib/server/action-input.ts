import type { z } from "zod";

/** Collects zod issues by their full dotted path; issues with no path go under "". */
export function fieldErrorsFrom(error: z.ZodError): Record<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".");
    byPath.set(key, [...(byPath.get(key) ?? []), issue.message]);
  }
  // A plain object (React can send it to the browser); fromEntries defines own properties, so a
  // path such as "__proto__" can't reach the prototype.
  return Object.fromEntries(byPath);
}

/**
 * Turns what a form action was sent into a plain object for a zod schema: a browser posts FormData
 * (repeated names become arrays); a hand-made call may post anything, and only its string values
 * are kept. The schema, inside the action, decides the rest.
 */
export function formDataToObject(submitted: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = Object.create(null);
  const entries: Iterable<[string, unknown]> =
    submitted instanceof FormData ? submitted.entries() : typeof submitted === "object" && submitted !== null ? Object.entries(submitted) : [];
  for (const [key, value] of entries) {
    // React's own fields for progressive enhancement.
    if (key.startsWith("$ACTION")) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const each of values) {
      if (typeof each !== "string") continue;
      const existing = object[key];
      if (existing === undefined) object[key] = each;
      else object[key] = Array.isArray(existing) ? [...existing, each] : [existing, each];
    }
  }
  return object;
}
