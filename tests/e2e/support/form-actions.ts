import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";

/** Every server action the production build exposes, as `<file>#<export>`. */
export function listServerActions(): string[] {
  const manifestPath = path.join(process.cwd(), ".next", "server", "server-reference-manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { node: Record<string, { filename: string; exportedName: string }> };
  return [...new Set(Object.values(manifest.node).map((action) => `${action.filename}#${action.exportedName}`))].sort();
}

/**
 * Calls a server action over HTTP with `FormData` arguments, encoded the way React's client encodes
 * them (`$K<n>` references to `_<n>_`-prefixed fields): what a browser's form submission sends,
 * without any page in between. `null` stays null, an object becomes FormData, anything else is JSON.
 */
export async function callFormAction(
  request: APIRequestContext,
  options: { baseURL: string; path: string; actionId: string; args: (Record<string, string> | null)[] },
): Promise<{ status: number; body: string; redirect: string | null }> {
  // A FormData keeps the order: the fields first, the root ("0") last, as React sends them (a plain
  // object would put the integer-like "0" first, and the server would read the root before its fields).
  const multipart = new FormData();
  let part = 0;
  const root = options.args.map((arg) => {
    if (arg === null) return null;
    part += 1;
    for (const [key, value] of Object.entries(arg)) multipart.append(`_${part.toString(16)}_${key}`, value);
    return `$K${part.toString(16)}`;
  });
  multipart.append("0", JSON.stringify(root));
  const response = await request.post(options.path, {
    headers: { "Next-Action": options.actionId, Accept: "text/x-component", Origin: options.baseURL },
    multipart,
    maxRedirects: 0,
  });
  // A server action redirects through a header the client router follows.
  return { status: response.status(), body: await response.text(), redirect: response.headers()["x-action-redirect"] ?? null };
}
