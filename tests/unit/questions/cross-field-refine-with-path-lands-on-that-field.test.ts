import { describe, expect, it } from "vitest";
import { z } from "zod";

import { validateTextAnswers } from "@/lib/questions/validate-answer";

const trip = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    travellers: z.int().min(1),
  })
  .refine((value) => value.to >= value.from, { message: "The trip must end after it starts.", path: ["to"] })
  .refine((value) => value.travellers < 10 || value.from !== value.to, { message: "Large groups need more than a day." });

describe("checks across several fields land on their field, and are announced while fields are refused", () => {
  it("puts a .refine with a path on that field", async () => {
    const result = await validateTextAnswers(trip, { from: "2025-03-14", to: "2025-03-01", travellers: "2" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { to: ["The trip must end after it starts."] }, formErrors: [] });
  });

  it("puts a .refine without a path on the form", async () => {
    const result = await validateTextAnswers(trip, { from: "2025-03-14", to: "2025-03-14", travellers: "12" });
    expect(result).toMatchObject({ ok: false, fieldErrors: {}, formErrors: ["Large groups need more than a day."] });
  });

  it("says there are more checks after these while a field is refused", async () => {
    const result = await validateTextAnswers(trip, { from: "2025-03-14", to: "2025-03-01", travellers: "0" });
    expect(result).toMatchObject({ ok: false, moreChecksAfterThese: true });
  });

  it("says so while a field's text could not even be read", async () => {
    const result = await validateTextAnswers(trip, { from: "soon", to: "2025-03-01", travellers: "2" });
    expect(result).toMatchObject({ ok: false, moreChecksAfterThese: true });
  });

  it("does not say so once the cross-field checks themselves refused", async () => {
    const result = await validateTextAnswers(trip, { from: "2025-03-14", to: "2025-03-01", travellers: "2" });
    expect(result).toMatchObject({ ok: false, moreChecksAfterThese: false });
  });

  it("does not say so for a schema with no cross-field checks", async () => {
    const result = await validateTextAnswers(z.object({ a: z.string() }), {});
    expect(result).toMatchObject({ ok: false, moreChecksAfterThese: false });
  });

  it("says so for a check on a nested object whose fields are refused", async () => {
    const schema = z.object({
      stay: z.object({ nights: z.int().min(1), rooms: z.int() }).refine((value) => value.rooms <= value.nights, { path: ["rooms"], message: "Too many rooms." }),
    });
    expect(await validateTextAnswers(schema, { "stay.nights": "0", "stay.rooms": "3" })).toMatchObject({ ok: false, moreChecksAfterThese: true });
    expect(await validateTextAnswers(schema, { "stay.nights": "1", "stay.rooms": "3" })).toMatchObject({
      ok: false,
      fieldErrors: { "stay.rooms": ["Too many rooms."] },
      moreChecksAfterThese: false,
    });
  });
});
