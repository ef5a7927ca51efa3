import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { httpRefusalOf } from "@/tests/support/http-refusal";

const valid = { to: "ada@parley.test", title: "Approve?" };

/** Requests the API refuses, with the code, HTTP status and path it names. */
const REFUSED: [string, unknown, { code: string; status: number; path?: string }][] = [
  ["no title", { to: "ada@parley.test" }, { code: "invalid_input", status: 400, path: "title" }],
  ["no one to ask", { title: "Approve?" }, { code: "invalid_input", status: 400, path: "to" }],
  ["a body that is not an object", ["to", "title"], { code: "invalid_input", status: 400, path: "" }],
  ["an unknown field", { ...valid, titel: "typo" }, { code: "invalid_input", status: 400, path: "titel" }],
  ["a to that is not an email", { ...valid, to: "ada" }, { code: "invalid_input", status: 400, path: "to" }],
  ["both deadlines", { ...valid, due_in_seconds: 60, due_at: "2026-12-05T09:00:00Z" }, { code: "invalid_input", status: 400, path: "due_at" }],
  ["attempts of zero", { ...valid, attempts: 0 }, { code: "invalid_input", status: 400, path: "attempts" }],
  ["a callback that is not http", { ...valid, callback_url: "ftp://example.test/hook" }, { code: "invalid_input", status: 400, path: "callback_url" }],
  ["a person who does not exist", { ...valid, to: "nobody@parley.test" }, { code: "unknown_person", status: 422, path: "to" }],
  ["one unknown among several", { ...valid, to: ["ada@parley.test", "nobody@parley.test"] }, { code: "unknown_person", status: 422, path: "to[1]" }],
  ["a person who answers nothing", { ...valid, to: "olive@parley.test" }, { code: "unknown_person", status: 422, path: "to" }],
  ["a group that does not exist", { ...valid, to: { group: "finance" } }, { code: "unknown_group", status: 422, path: "to.group" }],
  ["a deadline that is not a date", { ...valid, due_at: "tomorrow" }, { code: "unprocessable", status: 422, path: "due_at" }],
  ["a deadline that has passed", { ...valid, due_at: "2026-12-04T08:59:00Z" }, { code: "unprocessable", status: 422, path: "due_at" }],
  ["metadata over 4 KB", { ...valid, metadata: { note: "x".repeat(4100) } }, { code: "unprocessable", status: 422, path: "metadata" }],
  [
    "a schema with a nested object two levels deep",
    { ...valid, response_schema: { type: "object", properties: { a: { type: "object", properties: { b: { type: "object", properties: { c: { type: "string" } } } } } } } },
    { code: "unsupported_schema", status: 422, path: "response_schema.properties.a.properties.b" },
  ],
  ["a schema with a $ref", { ...valid, response_schema: { type: "object", properties: { a: { $ref: "#/$defs/a" } } } }, { code: "unsupported_schema", status: 422 }],
  ["a schema that is not an object", { ...valid, response_schema: { type: "string" } }, { code: "unsupported_schema", status: 422, path: "response_schema.type" }],
];

describe.each(DATABASE_KINDS)("refused ask requests on %s", (kind) => {
  let fixture: AskFixture;
  beforeAll(async () => {
    fixture = await createAskFixture(kind);
  });
  afterAll(() => fixture.close());

  it.each(REFUSED)("%s is refused, naming where, and stores nothing", async (_, body, expected) => {
    const refusal = await httpRefusalOf(fixture.service.create(fixture.key, body));
    expect(refusal).toMatchObject({ code: expected.code, status: expected.status, ...(expected.path !== undefined ? { path: expected.path } : {}) });
    expect(refusal.message.length).toBeGreaterThan(10);
    const [row] = await queryRows<{ asks: number; questions: number }>(fixture.database.db, sql`select (select count(*)::int from api_asks) as asks, (select count(*)::int from asks) as questions`);
    expect(row).toEqual({ asks: 0, questions: 0 });
  });
});

describe("refusal wording", () => {
  it("says a field of the wrong type is of the wrong type, and a missing one is missing", async () => {
    const { parseAskRequest } = await import("@/lib/asks/ask-request");
    const at = new Date("2026-12-04T09:00:00Z");
    expect(() => parseAskRequest({ to: "ada@parley.test", title: 5 }, at)).toThrow(/^title: .*expected string/);
    expect(() => parseAskRequest({ to: "ada@parley.test" }, at)).toThrow("title is required.");
  });
});
