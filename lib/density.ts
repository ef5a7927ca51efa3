/**
 * How tightly lists are set: `compact` (the default — a question a line, as many as fit) or
 * `comfortable` (more room, titles wrap). One person's choice, kept in a cookie by their browser.
 */
export const DENSITIES = ["compact", "comfortable"] as const;
export type Density = (typeof DENSITIES)[number];

/** The cookie the choice is kept in. */
export const DENSITY_COOKIE = "parley-density";

/** The density a cookie's value names; anything else is the default. */
export function densityFrom(value: string | undefined): Density {
  return value === "comfortable" ? "comfortable" : "compact";
}
