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

/** React's own fields for progressive enhancement, sent beside a form's fields. */
function isReactField(key: string): boolean {
  return key.startsWith("$ACTION");
}

/** Names no form of ours has, and that only ever come from someone probing for prototype pollution. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Whether `submitted` is something a form can send: FormData whose fields are text, or (a hand-made
 * call) a plain object of strings and lists of strings, with no field named like a prototype
 * (`__proto__`, `constructor`, `prototype`). Anything else — a number, a list, a file, a nested
 * object — is a wrong type, refused as such rather than read as an empty form.
 */
export function isFormSubmission(submitted: unknown): boolean {
  if (submitted instanceof FormData) {
    for (const [key, value] of submitted.entries()) {
      if (PROTOTYPE_KEYS.has(key) || (!isReactField(key) && typeof value !== "string")) return false;
    }
    return true;
  }
  if (typeof submitted !== "object" || submitted === null || Array.isArray(submitted)) return false;
  const prototype: unknown = Object.getPrototypeOf(submitted);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.entries(submitted).every(
    ([key, value]) =>
      !PROTOTYPE_KEYS.has(key) &&
      (isReactField(key) || typeof value === "string" || (Array.isArray(value) && value.every((each) => typeof each === "string"))),
  );
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
    if (isReactField(key)) continue;
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
