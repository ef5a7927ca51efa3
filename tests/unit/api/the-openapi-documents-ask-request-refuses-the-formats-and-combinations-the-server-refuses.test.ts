import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parseAskRequest } from "@/lib/asks/ask-request";
import { openApiDocument } from "@/lib/asks/openapi";

const NOW = new Date("2026-12-04T09:00:00Z");
const ASK = { to: "sam@parley.test", title: "Deploy?" };

/** Requests the server refuses for a format or a combination of fields, beside ones it takes. */
const CASES: { name: string; body: Record<string, unknown>; taken: boolean }[] = [
  { name: "a plain ask", body: ASK, taken: true },
  { name: "to that is not an email", body: { ...ASK, to: "sam" }, taken: false },
  { name: "to naming one email that is not one", body: { ...ASK, to: ["sam@parley.test", "ada"] }, taken: false },
  { name: "a callback_url that is not a URL", body: { ...ASK, callback_url: "not a url" }, taken: false },
  { name: "a callback_url", body: { ...ASK, callback_url: "https://receiver.parley.test/hook" }, taken: true },
  { name: "a due_at that is not a date-time", body: { ...ASK, due_at: "tomorrow at five" }, taken: false },
  { name: "a due_at without its offset", body: { ...ASK, due_at: "2026-12-05T17:00:00" }, taken: false },
  { name: "a due_at", body: { ...ASK, due_at: "2026-12-05T17:00:00Z" }, taken: true },
  { name: "due_at and due_in_seconds both", body: { ...ASK, due_at: "2026-12-05T17:00:00Z", due_in_seconds: 600 }, taken: false },
  { name: "due_in_seconds with a null due_at", body: { ...ASK, due_at: null, due_in_seconds: 600 }, taken: true },
  { name: "add_group with its group", body: { ...ASK, due_in_seconds: 600, escalation: [{ after_percent: 50, action: "add_group", group: "on-call" }] }, taken: true },
  { name: "add_group without a group", body: { ...ASK, due_in_seconds: 600, escalation: [{ after_percent: 50, action: "add_group" }] }, taken: false },
  { name: "remind with a group", body: { ...ASK, due_in_seconds: 600, escalation: [{ after_percent: 50, action: "remind", group: "on-call" }] }, taken: false },
  { name: "remind", body: { ...ASK, due_in_seconds: 600, escalation: [{ after_percent: 50, action: "remind" }] }, taken: true },
];

function takenByTheServer(body: unknown): boolean {
  try {
    parseAskRequest(body, NOW);
    return true;
  } catch {
    return false;
  }
}

describe("the OpenAPI document's AskRequest", () => {
  const document = openApiDocument("https://parley.example.org") as { components: { schemas: Record<string, unknown> } };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const takenByTheDocument = ajv.compile(document.components.schemas.AskRequest as object);

  it.each(CASES)("judges $name as the server does", ({ body, taken }) => {
    expect(takenByTheServer(body)).toBe(taken);
    expect(takenByTheDocument(body), JSON.stringify(takenByTheDocument.errors)).toBe(taken);
  });
});
