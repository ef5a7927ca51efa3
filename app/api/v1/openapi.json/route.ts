import { getAppRuntime } from "@/lib/app-runtime";
import { openApiDocument } from "@/lib/asks/openapi";
import { apiJson, apiRoute } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/** The API's OpenAPI 3.1 document (public: it is the contract, not anyone's data). */
export function GET(request: Request) {
  return apiRoute(request, "/api/v1/openapi.json", async () => apiJson(openApiDocument((await getAppRuntime()).notices.baseUrl)));
}
