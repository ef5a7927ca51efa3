import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";

interface ServerReferenceManifest {
  node: Record<string, { filename: string; exportedName: string }>;
}

/** The id under which the production build exposes a server action, as any client could find it. */
export function serverActionId(filename: string, exportedName: string): string {
  const manifestPath = path.join(process.cwd(), ".next", "server", "server-reference-manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as ServerReferenceManifest;
  const entry = Object.entries(manifest.node).find(([, action]) => action.filename === filename && action.exportedName === exportedName);
  if (!entry) throw new Error(`no server action ${exportedName} in ${filename}`);
  return entry[0];
}

/**
 * Calls a server action over HTTP the way a hand-written request would, skipping every page and
 * link: what the action does is all that stands between the caller and the data.
 */
export async function callServerAction(
  request: APIRequestContext,
  options: { baseURL: string; path: string; actionId: string; args: unknown[] },
): Promise<{ status: number; body: string }> {
  const response = await request.post(options.path, {
    headers: {
      "Next-Action": options.actionId,
      "Content-Type": "text/plain;charset=UTF-8",
      Accept: "text/x-component",
      Origin: options.baseURL,
    },
    data: JSON.stringify(options.args),
  });
  return { status: response.status(), body: await response.text() };
}
