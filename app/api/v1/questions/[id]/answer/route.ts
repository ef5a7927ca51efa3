import { getQuestionsApi } from "@/lib/questions-api/configured";
import { apiJson, apiRoute, authenticateApiRequest, readJsonBody } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/**
 * Answers with each field's text as typed (`{ "answers": { "<path>": "<text>" } }`): 200 answered,
 * 422 refused by field with the next attempt, 409 when that was the last attempt or the question is
 * no longer open, 404 for another's or an unknown question.
 */
export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return apiRoute(request, "/api/v1/questions/[id]/answer", async () => {
    const key = await authenticateApiRequest(request, "personal");
    const body = await readJsonBody(request);
    const { id } = await params;
    return apiJson(await (await getQuestionsApi()).answer(key, id, body));
  });
}
