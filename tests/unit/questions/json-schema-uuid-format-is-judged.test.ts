import { describe, expect, it } from "vitest";
import { validateFormAnswer } from "@/lib/questions/validate-answer";
import { zodFrom } from "./json-schema";

const ticket = zodFrom({ type: "object", properties: { incident: { type: "string", format: "uuid", description: "Which incident?" } }, required: ["incident"] });

describe('a "uuid" format, as z.toJSONSchema writes z.uuid()', () => {
  it("takes a UUID", async () => {
    expect(await validateFormAnswer(ticket, { incident: "123e4567-e89b-42d3-a456-426614174000" })).toMatchObject({ ok: true, value: { incident: "123e4567-e89b-42d3-a456-426614174000" } });
  });

  it("refuses anything else in plain words", async () => {
    expect(await validateFormAnswer(ticket, { incident: "INC-42" })).toMatchObject({ ok: false, fieldErrors: { incident: [expect.stringMatching(/^Must be a UUID/)] } });
  });
});
