import { getQuestionsApi } from "@/lib/questions-api/configured";
import { apiJson, apiRoute, authenticateApiRequest } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/** Who this personal token belongs to: `{ id, email, name, roles }`. */
export function GET(request: Request) {
  return apiRoute(request, "/api/v1/me", async () => {
    const key = await authenticateApiRequest(request, "personal");
    return apiJson(await (await getQuestionsApi()).me(key));
  });
}
