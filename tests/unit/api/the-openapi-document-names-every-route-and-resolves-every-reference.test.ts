import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/asks/openapi";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const API_ROOT = path.join(ROOT, "app", "api", "v1");

/** Every route handler under app/api/v1, as `METHOD /path` the document names (`[id]` → `{id}`). */
function routeOperations(): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const route = `/${path.relative(API_ROOT, folder).split(path.sep).join("/")}`.replace(/\[([^\]]+)\]/g, "{$1}");
        for (const [, method] of readFileSync(full, "utf8").matchAll(/export (?:async )?function (GET|POST|PUT|PATCH|DELETE)\b/g)) found.push(`${method} ${route}`);
      }
    }
  };
  walk(API_ROOT);
  return found.sort();
}

describe("the OpenAPI document", () => {
  const document = openApiDocument("http://localhost:3000") as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };

  it("has an operation for every route handler under /api/v1, and none that is not one", () => {
    const documented = Object.entries(document.paths)
      .flatMap(([route, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${route}`))
      .sort();
    expect(documented).toEqual(routeOperations());
  });

  it("says the person's operations take a personal token", () => {
    for (const route of ["/me", "/questions", "/questions/{id}", "/questions/{id}/answer", "/questions/{id}/nothing"]) {
      for (const operation of Object.values(document.paths[route] ?? {})) expect(operation.security).toEqual([{ personalToken: [] }]);
    }
    expect(document.components.securitySchemes).toHaveProperty("personalToken");
  });

  it("says the agent's operations take an agent key, a scheme a generator tells apart from the personal token's", () => {
    for (const route of ["/asks", "/asks/{id}", "/asks/{id}/cancel"]) {
      for (const operation of Object.values(document.paths[route] ?? {})) expect(operation.security).toEqual([{ agentKey: [] }]);
    }
    const schemes = document.components.securitySchemes as Record<string, { bearerFormat?: string; description?: string }>;
    expect(schemes.agentKey?.bearerFormat).toBe("pk_…");
    expect(schemes.personalToken?.bearerFormat).toBe("pt_…");
    // Every operation names what it takes: none is left to a document-wide default.
    expect(document).not.toHaveProperty("security");
    for (const operations of Object.values(document.paths)) for (const operation of Object.values(operations)) expect(operation.security).toBeDefined();
  });

  it("resolves every reference inside itself", () => {
    const references = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map(([, target]) => target!);
    expect(references.length).toBeGreaterThan(0);
    const unresolved = references.filter((target) => {
      if (!target.startsWith("#/")) return true;
      let node: unknown = document;
      for (const segment of target.slice(2).split("/")) node = (node as Record<string, unknown> | undefined)?.[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
      return node === undefined;
    });
    expect(unresolved).toEqual([]);
  });
});
