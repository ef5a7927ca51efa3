import { getQuestionsApi } from "@/lib/questions-api/configured";
import { apiJson, apiRoute, authenticateApiRequest, readJsonBody } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/** Closes the question with nothing because nobody is at the terminal (`{ "reason": "non-interactive" }`). */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return apiRoute(request, "/api/v1/questions/[id]/nothing", async () => {
    const key = await authenticateApiRequest(request, "personal");
    const body = await readJsonBody(request);
    const { id } = await params;
    return apiJson(await (await getQuestionsApi()).nothing(key, id, body));
  });
}
