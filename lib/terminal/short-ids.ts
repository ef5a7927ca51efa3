/** The fewest characters a short id has: question ids begin with their time, so fewer would rarely tell two apart. */
export const SHORT_ID_MINIMUM = 8;

/**
 * The id `parley inbox` shows for each of these ids: its shortest beginning, at least
 * {@link SHORT_ID_MINIMUM} characters and never ending in a dash, that no other id in the list
 * begins with — what `parley answer` takes. Ids are time-ordered (UUID version 7), so ids made close
 * together share their first characters and get longer short ids.
 */
export function shortIds(ids: readonly string[]): Map<string, string> {
  const lowered = [...new Set(ids.map((id) => id.toLowerCase()))];
  const shortened = new Map<string, string>();
  for (const id of ids) {
    const own = id.toLowerCase();
    let length = Math.min(SHORT_ID_MINIMUM, own.length);
    const clashes = (prefix: string) => lowered.some((other) => other !== own && other.startsWith(prefix));
    while (length < own.length && (own[length - 1] === "-" || clashes(own.slice(0, length)))) length += 1;
    shortened.set(id, id.slice(0, length));
  }
  return shortened;
}

/** What a typed id is among a person's questions: the one it begins, several, or none. */
export type PrefixMatch = { status: "one"; id: string } | { status: "several"; ids: string[] } | { status: "none" };

/** The ids among `ids` that begin with what was typed (letters in either case). */
export function matchPrefix(typed: string, ids: readonly string[]): PrefixMatch {
  const prefix = typed.trim().toLowerCase();
  const matches = ids.filter((id) => id.toLowerCase().startsWith(prefix));
  if (matches.length === 1) return { status: "one", id: matches[0]! };
  return matches.length === 0 ? { status: "none" } : { status: "several", ids: matches };
}

/** Whether what was typed could begin a question id: hexadecimal digits and dashes, nothing else. */
export function couldBeginAnId(typed: string): boolean {
  return /^[0-9a-f][0-9a-f-]*$/i.test(typed.trim());
}
