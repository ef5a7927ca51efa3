import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/asks/openapi";

type Header = { $ref?: string; required?: boolean; schema?: { type?: string } };
type Response = { headers?: Record<string, Header>; content?: Record<string, { schema: { $ref?: string } }> };
type Operation = { operationId: string; security?: unknown[]; responses: Record<string, Response> };

describe("the OpenAPI document", () => {
  const document = openApiDocument("https://parley.example.org") as {
    paths: Record<string, Record<string, Operation>>;
    components: { headers: Record<string, Header> };
  };
  const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
  /** A response's Retry-After header, its reference followed. */
  const retryAfter = (response: Response | undefined): Header | undefined => {
    const header = response?.headers?.["Retry-After"];
    return header?.$ref ? document.components.headers[header.$ref.replace("#/components/headers/", "")] : header;
  };

  it("says every operation may answer 503 unavailable, in the error shape, with a required Retry-After in seconds", () => {
    for (const operation of operations) {
      const unavailable = operation.responses["503"];
      expect(unavailable?.content?.["application/json"]?.schema, operation.operationId).toEqual({ $ref: "#/components/schemas/Error" });
      expect(retryAfter(unavailable), operation.operationId).toMatchObject({ required: true, schema: { type: "integer" } });
    }
  });

  it("says every 429 carries a required Retry-After", () => {
    const limited = operations.filter((operation) => operation.responses["429"]);
    // Every operation that takes a credential can be over its rate.
    expect(limited.map((operation) => operation.operationId)).toEqual(operations.filter((operation) => operation.security?.length !== 0).map((operation) => operation.operationId));
    for (const operation of limited) expect(retryAfter(operation.responses["429"]), operation.operationId).toMatchObject({ required: true, schema: { type: "integer" } });
  });
});
