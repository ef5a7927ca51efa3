import { auditCsv, parseAuditQuery, resolveAuditQuery } from "@/lib/audit";
import { getDb } from "@/lib/database";
import { getRegistry } from "@/lib/registry/configured";
import { authorizeRequest } from "@/lib/server/session";

export const dynamic = "force-dynamic";

/**
 * The audit log as CSV, for admins: the page's filters (`category`, `who`, `from`, `until`), every
 * matching line, newest first, streamed a page of the log at a time. A filter the page would refuse
 * (nobody by that name, a day that is not one) is a 400 saying why, as the API says it.
 */
export async function GET(request: Request) {
  const user = await authorizeRequest(["admin"]);
  if (user instanceof Response) return user;
  const url = new URL(request.url);
  const query = parseAuditQuery(Object.fromEntries(url.searchParams));
  const db = await getDb();
  const resolved = await resolveAuditQuery(db, query);
  if (!resolved.ok) {
    return Response.json({ error: { code: "invalid_input", message: resolved.problem } }, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  const registry = getRegistry();
  const lines = auditCsv(db, resolved.filter, (name) => registry.entry(name)?.label ?? name);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="parley-audit-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
