import { getAppRuntime } from "@/lib/app-runtime";
import { getDatabase } from "@/lib/database";
import { checkReadiness } from "@/lib/health";

export const dynamic = "force-dynamic";

/**
 * Readiness: 200 when this process can do its work — the database answers, every migration is
 * applied, the worker is running — and 503 otherwise, with each check by name and nothing else (no
 * address, version or error). Unauthenticated, for load balancers and readiness probes: send traffic
 * here only while it says ready.
 */
export async function GET() {
  const readiness = await checkReadiness({ database: getDatabase, worker: async () => (await getAppRuntime()).worker });
  return Response.json({ status: readiness.ready ? "ready" : "not ready", checks: readiness.checks }, { status: readiness.ready ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
