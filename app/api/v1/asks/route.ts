import { getAskService } from "@/lib/asks/configured";
import { AppError } from "@/lib/errors";
import { apiJson, apiRoute, authenticateApiRequest, readJsonBody } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

const STATUSES = ["open", "answered", "nothing"] as const;

/** Asks a person: 201 with the ask; the same Idempotency-Key again, 200 with the same ask. */
export function POST(request: Request) {
  return apiRoute(request, "/api/v1/asks", async () => {
    const key = await authenticateApiRequest(request, "agent");
    const body = await readJsonBody(request);
    const { created, ask } = await (await getAskService()).create(key, body, { idempotencyKey: request.headers.get("idempotency-key") });
    return apiJson(ask, created ? 201 : 200, created ? { location: `/api/v1/asks/${ask.id}` } : {});
  });
}

/** This key's asks, newest first: `?status=open|answered|nothing&limit=1..100&cursor=…`. */
export function GET(request: Request) {
  return apiRoute(request, "/api/v1/asks", async () => {
    const key = await authenticateApiRequest(request, "agent");
    const query = new URL(request.url).searchParams;
    const status = query.get("status");
    if (status !== null && !STATUSES.includes(status as (typeof STATUSES)[number])) {
      throw new AppError("invalid_input", "status is open, answered or nothing.", { path: "status" });
    }
    const limitText = query.get("limit");
    const limit = limitText === null ? undefined : /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
    const page = await (await getAskService()).list(key, {
      ...(status ? { status: status as (typeof STATUSES)[number] } : {}),
      ...(limit !== undefined ? { limit } : {}),
      cursor: query.get("cursor"),
    });
    return apiJson(page);
  });
}
