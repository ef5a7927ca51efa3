import { getAskService } from "@/lib/asks/configured";
import { apiJson, apiRoute, authenticateApiRequest } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/** Withdraws an open ask: it closes with nothing (`cancelled`), and the person sees it withdrawn. */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return apiRoute(request, "/api/v1/asks/[id]/cancel", async () => {
    const key = await authenticateApiRequest(request, "agent");
    const { id } = await params;
    return apiJson(await (await getAskService()).cancel(key, id));
  });
}
