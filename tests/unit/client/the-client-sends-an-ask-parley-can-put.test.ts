import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createParleyClient } from "@parleyhq/client";
import { parseAskRequest } from "@/lib/asks/ask-request";
import { schemaFromJsonSchema } from "@/lib/questions/schema-from-json-schema";
import { specFromSchema } from "@/lib/questions/spec-from-schema";
import { askJson, type FakeParley, json, startFakeParley } from "./fake-parley";

// What the client puts on the wire is what the server takes: its camelCase input as the API's
// snake_case body (judged here by the server's own parser), and a zod schema as JSON Schema that the
// server's converter accepts and asks as the same questions.

let fake: FakeParley | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The body and headers of the POST the client sends for `input`. */
async function sent(input: Parameters<ReturnType<typeof createParleyClient>["createAsk"]>[0], idempotencyKey?: string) {
  fake = await startFakeParley((request, response) => json(response, 201, askJson()));
  const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test" });
  const created = await parley.createAsk(input, idempotencyKey === undefined ? {} : { idempotencyKey });
  const [request] = fake.received;
  return { created, request: request!, body: JSON.parse(request!.body) as Record<string, unknown> };
}

const Deploy = z.object({
  decision: z.union([z.literal("approve").meta({ title: "Approve" }), z.literal("reject").meta({ title: "Reject" })]).describe("Deploy now?"),
  windowHours: z.int().min(1).max(12).describe("How many hours may it take?"),
  notify: z.boolean().default(false).describe("Tell the on-call team?"),
  region: z.enum(["eu", "us"]).optional().describe("Which region first?"),
  note: z.string().max(200).nullable().describe("Anything else?"),
});

describe("the ask the client sends", () => {
  it("is the API's body, which the server's own parser takes", async () => {
    const { body, request, created } = await sent(
      {
        to: ["sam@parley.test", "priya@parley.test"],
        title: "Deploy?",
        body: "The release is green.",
        context: { service: "billing", build: 812, canary: true },
        schema: Deploy,
        within: { hours: 4, minutes: 30 },
        attempts: 2,
        callbackUrl: "https://agent.example/hooks/parley",
        metadata: { run: "r-1" },
      },
      "job-42:deploy",
    );
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/api/v1/asks");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["idempotency-key"]).toBe("job-42:deploy");
    expect(created).toMatchObject({ created: true, idempotencyKey: "job-42:deploy" });
    expect(body).toMatchObject({
      to: ["sam@parley.test", "priya@parley.test"],
      title: "Deploy?",
      body: "The release is green.",
      context: { service: "billing", build: 812, canary: true },
      due_in_seconds: 16_200,
      attempts: 2,
      callback_url: "https://agent.example/hooks/parley",
      metadata: { run: "r-1" },
    });
    const judged = parseAskRequest(body, new Date("2026-12-04T09:00:00Z"));
    expect(judged.dueAt?.toISOString()).toBe("2026-12-04T13:30:00.000Z");
  });

  it("carries the zod schema as JSON Schema that Parley asks as the same questions", async () => {
    const { body } = await sent({ to: "sam@parley.test", title: "Deploy?", schema: Deploy });
    const converted = schemaFromJsonSchema(body.response_schema);
    if (!converted.ok) throw new Error(`refused at ${converted.path}: ${converted.message}`);
    expect(specFromSchema(converted.schema)).toEqual(specFromSchema(Deploy));
    // And the value the server's schema accepts is one the caller's parses to the same.
    const answer = converted.schema.parse({ decision: "approve", windowHours: 3, note: null });
    expect(Deploy.parse(answer)).toEqual(answer);
  });

  it("sends a moment as due_at, and nothing it was not given", async () => {
    const { body } = await sent({ to: "sam@parley.test", title: "Deploy?", dueAt: new Date("2026-12-05T17:00:00Z") });
    expect(body).toEqual({ to: "sam@parley.test", title: "Deploy?", due_at: "2026-12-05T17:00:00.000Z" });
  });

  it("generates an Idempotency-Key when none is given, and says which", async () => {
    const { request, created } = await sent({ to: "sam@parley.test", title: "Deploy?" });
    expect(created.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(request.headers["idempotency-key"]).toBe(created.idempotencyKey);
  });

  it("refuses a schema JSON Schema cannot carry before sending anything", async () => {
    fake = await startFakeParley((request, response) => json(response, 201, askJson()));
    const parley = createParleyClient({ baseUrl: fake.url, apiKey: "pk_test" });
    await expect(parley.ask({ to: "sam@parley.test", title: "When?", schema: z.object({ at: z.date() }) })).rejects.toThrow(/cannot be sent to Parley as JSON Schema/);
    expect(fake.received).toHaveLength(0);
  });
});
