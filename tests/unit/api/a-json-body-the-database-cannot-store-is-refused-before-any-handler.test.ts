import { describe, expect, it } from "vitest";
import { API_BODY_NESTING_LIMIT, readJsonBody } from "@/lib/server/api-request";
import { httpRefusalOf } from "@/tests/support/http-refusal";

const post = (body: string, type = "application/json") => new Request("http://parley.test/api/v1/x", { method: "POST", headers: { "content-type": type }, body });

describe("the API's JSON body reader", () => {
  it.each([
    ["an escaped NUL in a string", '{"answers":{"answer":"a\\u0000b"}}', "NUL"],
    ["an escaped NUL in a key", '{"answers":{"a\\u0000":"b"}}', "NUL"],
    ["half a surrogate pair", '{"title":"\\ud800"}', "surrogate"],
    ["a low surrogate alone", '{"title":"x\\udfffy"}', "surrogate"],
    ["nesting thousands deep", `{"metadata":${"[".repeat(50_000)}${"]".repeat(50_000)}}`, "nests deeper"],
  ])("refuses %s with 400, naming it", async (_label, body, words) => {
    expect(await httpRefusalOf(readJsonBody(post(body)))).toMatchObject({ code: "invalid_input", status: 400, message: expect.stringContaining(words) });
  });

  it("takes what can be stored: emoji (surrogate pairs), nesting up to the limit", async () => {
    expect(await readJsonBody(post('{"answers":{"answer":"Ship it 🚀 \\ud83d\\ude80"}}'))).toEqual({ answers: { answer: "Ship it 🚀 🚀" } });
    const nested = `${"[".repeat(API_BODY_NESTING_LIMIT)}${"]".repeat(API_BODY_NESTING_LIMIT)}`;
    expect(await readJsonBody(post(nested))).toBeInstanceOf(Array);
    await expect(readJsonBody(post(`[${nested}]`))).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("refuses what is not JSON, or too big, by its status", async () => {
    await expect(readJsonBody(post("{", "application/json"))).rejects.toMatchObject({ code: "invalid_input" });
    expect(await httpRefusalOf(readJsonBody(post("{}", "text/plain")))).toMatchObject({ code: "unsupported_media_type", status: 415 });
    expect(await httpRefusalOf(readJsonBody(post(JSON.stringify({ padding: "x".repeat(300_000) }))))).toMatchObject({ code: "payload_too_large", status: 413 });
  });
});
