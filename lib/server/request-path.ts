/** Header set by proxy.ts with the path being requested, so sign-in can send people back to it. */
export const REQUEST_PATH_HEADER = "x-parley-path";
