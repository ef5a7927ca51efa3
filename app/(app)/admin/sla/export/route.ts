import { getDb } from "@/lib/database";
import { getRegistry } from "@/lib/registry/configured";
import { slaNumbersCsv } from "@/lib/sla-export";
import { slaHistoryFor } from "@/lib/sla-history";
import { parseSlaPeriod } from "@/lib/sla-numbers";
import { authorizeRequest } from "@/lib/server/session";

export const dynamic = "force-dynamic";

/**
 * The SLA page's numbers as CSV, for admins: `?period=24h|7d|30d|all` (the page's own, 7 days when
 * absent or unknown), the whole period and every workflow, agent, team and person — the page shows
 * people 25 at a time, this file all of them.
 */
export async function GET(request: Request) {
  const user = await authorizeRequest(["admin"]);
  if (user instanceof Response) return user;
  const period = parseSlaPeriod(new URL(request.url).searchParams.get("period"));
  const history = await slaHistoryFor(await getDb(), period);
  const registry = getRegistry();
  const csv = slaNumbersCsv(history, period, { workflowLabel: (name) => registry.entry(name)?.label ?? name });
  const day = history.readAt.toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="parley-sla-${period}-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
