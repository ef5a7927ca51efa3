import { z } from "zod";
import { NOTHING_REASONS } from "@/db/schema";

/** An ask as the API returns it (the contract the OpenAPI document publishes). */
export const AskViewSchema = z.object({
    id: z.uuid().describe("The ask's id."),
    status: z.enum(["open", "answered", "nothing"]).describe("open: waiting for the person; answered: see `answer`; nothing: nobody answered, see `reason`."),
    title: z.string(),
    body: z.string().nullable(),
    context: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
    to: z.union([z.string(), z.array(z.string()), z.object({ group: z.string() })]).describe("`to` as it was given."),
    url: z.url().describe("The question's page, where the person answers it."),
    due_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    attempts: z.object({ allowed: z.int(), refused: z.int() }).describe("Refused submissions allowed, and spent so far."),
    answer: z.unknown().describe("The value the response schema accepted (a string for a free-text ask); null until answered."),
    answered_by: z.object({ email: z.string(), name: z.string() }).nullable(),
    answered_at: z.iso.datetime().nullable().describe("When it was answered, or closed with nothing."),
    waited_seconds: z.int().describe("From the ask to its answer or its closing; until now while it is open."),
    reason: z.enum(NOTHING_REASONS).nullable().describe("Why nobody answered, when the status is nothing."),
  });
export type AskView = z.output<typeof AskViewSchema>;

/** A page of asks. */
export const AskPageSchema = z.object({ data: z.array(AskViewSchema), next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last.") });
export type AskPage = z.output<typeof AskPageSchema>;

/** Every refusal: one shape, a stable code, where the problem is. */
export const ApiErrorSchema = z.object({
    error: z.object({
      code: z.string().describe("Stable: branch on it, never on the message."),
      message: z.string().describe("What went wrong, in words a person can act on."),
      path: z.string().optional().describe("Where in the request, when it is in one place (`to[1]`, `response_schema.properties.x`)."),
    }),
  });
