import { getAskService } from "@/lib/asks/configured";
import { MAX_WAIT_SECONDS } from "@/lib/asks/asks";
import { AppError } from "@/lib/errors";
import { apiJson, apiRoute, authenticateApiRequest } from "@/lib/server/api-request";

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
    return apiJson(await service.wait(key, id, Number(waitText), request.signal));
  });
}
