export const dynamic = "force-dynamic";

const HEADERS = { "Cache-Control": "no-store" };

/**
 * Liveness: the process answers HTTP. Unauthenticated, and says nothing else — whether Parley can
 * work (database, migrations, worker) is `/api/ready`'s to say. A container's HEALTHCHECK or a
 * liveness probe calls it; restart the process only when this stops answering.
 */
export function GET() {
  return Response.json({ status: "ok" }, { headers: HEADERS });
}

/** {@link GET} without a body. */
export function HEAD() {
  return new Response(null, { headers: HEADERS });
}
