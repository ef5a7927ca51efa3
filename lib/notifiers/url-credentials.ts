// A URL may carry a user name and password (`https://user:pw@host/…`). `fetch` refuses to send such a
// URL at all, and prints it, password and all, in the error it throws; so Parley refuses them where a
// URL comes in, and keeps them out of every text a log, a report or a screen may show.

/** Whether `url` carries a user name or a password. */
export function hasUrlCredentials(url: URL): boolean {
  return url.username !== "" || url.password !== "";
}

// A scheme and `//`, then everything up to the last `@` before the path, query, fragment or a space:
// the user information (a password may itself hold an `@` where it was not percent-encoded).
const USER_INFORMATION = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/**
 * `text` with the user name and password of every URL in it replaced by `***`, for a log line, a
 * stored report or an admin's screen. Text without URLs is returned as it is.
 */
export function withoutUrlCredentials(text: string): string {
  return text.replace(USER_INFORMATION, "$1***@");
}
