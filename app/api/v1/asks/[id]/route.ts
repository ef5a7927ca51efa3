import { getAskService } from "@/lib/asks/configured";
import { MAX_WAIT_SECONDS } from "@/lib/asks/asks";
import { AppError } from "@/lib/errors";
import { apiJson, apiRoute, authenticateApiRequest } from "@/lib/server/api-request";
import { RECONNECT_AFTER_SECONDS, shutdownSignal, untilShutdown } from "@/lib/server/shutdown";

export const dynamic = "force-dynamic";

/** One ask; with `?wait=N` (≤ 60), held until it is answered or closed, or N seconds pass. */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return apiRoute(request, "/api/v1/asks/[id]", async () => {
    const key = await authenticateApiRequest(request, "agent");
    const { id } = await params;
    const waitText = new URL(request.url).searchParams.get("wait");
    const service = await getAskService();
    if (waitText === null) return apiJson(await service.get(key, id));
    if (!/^\d{1,2}$/.test(waitText) || Number(waitText) > MAX_WAIT_SECONDS) {
      throw new AppError("invalid_input", `wait is a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}.`, { path: "wait" });
    }
    // A process that begins to stop answers at once with the ask as it is, and says when to ask again (another process will hold the wait).
    const held = untilShutdown(request.signal);
    const ask = await service.wait(key, id, Number(waitText), held);
    return apiJson(ask, 200, shutdownSignal().aborted ? { "retry-after": String(RECONNECT_AFTER_SECONDS) } : {});
  });
}
