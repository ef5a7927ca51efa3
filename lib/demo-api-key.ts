import type { Db } from "@/db/client";
import { findDemoApiKey } from "@/db/queries/api-keys";
import { createApiKey } from "@/lib/api-keys";

/** The demo key's name: who the demo's API asks appear to come from. */
export const DEMO_API_KEY_NAME = "Demo agent";

/**
 * Demo mode only: the live demo agent key, made (by `by`, the demo admin) when there is none — on
 * the first start, or after it was revoked. Its secret is kept so the console and the API keys page
 * can show it; a real key's never is.
 */
export async function ensureDemoApiKey(db: Db, by: string | null): Promise<{ secret: string; created: boolean }> {
  const existing = await findDemoApiKey(db);
  if (existing?.demoSecret) return { secret: existing.demoSecret, created: false };
  const { secret } = await createApiKey(db, { kind: "agent", name: DEMO_API_KEY_NAME, by, demo: true });
  return { secret, created: true };
}

/** The console line that shows the demo key: `Demo API key: pk_…`, alone on its line. */
export function formatDemoApiKey(secret: string): string {
  return `Demo API key: ${secret}`;
}
