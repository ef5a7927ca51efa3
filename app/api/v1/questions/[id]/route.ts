import { getQuestionsApi } from "@/lib/questions-api/configured";
import { apiJson, apiRoute, authenticateApiRequest } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/** One of the token's person's questions, with its status, spec and context; another's or an unknown one is 404. */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return apiRoute(request, "/api/v1/questions/[id]", async () => {
    const key = await authenticateApiRequest(request, "personal");
    const { id } = await params;
    return apiJson(await (await getQuestionsApi()).get(key, id));
  });
}
