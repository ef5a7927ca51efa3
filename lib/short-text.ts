/**
 * `text` cut to at most `length` characters (whole code points, so an emoji is never split), ending in
 * "…" when it was cut: for a line on a list page, where the text's own page shows it whole.
 */
export function shorten(text: string, length: number): string {
  const characters = Array.from(text);
  return characters.length <= length ? text : `${characters.slice(0, length - 1).join("").trimEnd()}…`;
}

/** How much of a long text a page shows before "Show all". */
export const SHOWN_TEXT_LENGTH = 600;

/** How much of a question's text a list (inbox, SLA page) shows: the question's page has the rest. */
export const LISTED_TEXT_LENGTH = 200;
