import { getQuestionsApi } from "@/lib/questions-api/configured";
import { apiJson, apiRoute, authenticateApiRequest } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/** The token's person's open questions, soonest due first: `?limit=1..100&cursor=…`. */
export function GET(request: Request) {
  return apiRoute(request, "/api/v1/questions", async () => {
    const key = await authenticateApiRequest(request, "personal");
    const query = new URL(request.url).searchParams;
    const limitText = query.get("limit");
    const limit = limitText === null ? undefined : /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
    return apiJson(await (await getQuestionsApi()).list(key, { ...(limit !== undefined ? { limit } : {}), cursor: query.get("cursor") }));
  });
}
