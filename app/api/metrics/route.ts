import { metricsToken } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { presentsMetricsToken } from "@/lib/metrics";
import { apiRoute } from "@/lib/server/api-request";
import { getMetrics } from "@/lib/server/metrics";

export const dynamic = "force-dynamic";

/**
 * Prometheus metrics, in its text format, for a scraper that sends `PARLEY_METRICS_TOKEN` as a bearer
 * token. Off (404, as if there were no such page) while the token is unset; 401 for any other token.
 */
export function GET(request: Request) {
  return apiRoute(request, "/api/metrics", async () => {
    const token = metricsToken();
    if (!token) throw new AppError("not_found", "Metrics are off: set PARLEY_METRICS_TOKEN to turn them on.");
    if (!presentsMetricsToken(request.headers.get("authorization"), token)) {
      throw new AppError("unauthorized", "Send the metrics token: Authorization: Bearer <PARLEY_METRICS_TOKEN>.");
    }
    const { contentType, body } = await getMetrics().render();
    return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  });
}
