import { describe, expect, it } from "vitest";
import { apiRoute, authenticateApiRequest } from "@/lib/server/api-request";

describe("an API request without a key", () => {
  it("is answered 401 with WWW-Authenticate naming a bearer key, as RFC 7235 asks", async () => {
    const request = new Request("http://parley.test/api/v1/asks");
    const response = await apiRoute(request, "/api/v1/asks", async () => {
      await authenticateApiRequest(request, "agent");
      return new Response("unreachable");
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="Parley"');
    expect(await response.json()).toMatchObject({ error: { code: "unauthorized" } });
  });
});
