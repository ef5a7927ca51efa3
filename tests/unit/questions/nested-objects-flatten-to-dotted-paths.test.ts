import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema } from "@/lib/questions/spec-from-schema";

const schema = z.object({
  name: z.string(),
  address: z
    .object({
      city: z.string(),
      geo: z.object({ lat: z.number(), lng: z.number() }).optional(),
    })
    .describe("Where do you live?"),
});

describe("nested objects are flattened to dotted paths under a heading", () => {
  it("names each leaf by its full dotted path, in the schema's order", () => {
    expect(specFromSchema(schema).fields.map((field) => field.path)).toEqual(["name", "address.city", "address.geo.lat", "address.geo.lng"]);
  });

  it("heads a nested object with its description, else its readable name", () => {
    expect(specFromSchema(schema).groups.map((group) => [group.path, group.heading])).toEqual([
      ["address", "Where do you live?"],
      ["address.geo", "Geo"],
    ]);
  });

  it("puts each leaf in the group of the object it sits in", () => {
    expect(specFromSchema(schema).fields.map((field) => field.group)).toEqual([undefined, "address", "address.geo", "address.geo"]);
  });

  it("records that a nested object may be left out", () => {
    expect(specFromSchema(schema).groups.map((group) => group.optional)).toEqual([false, true]);
  });
});
