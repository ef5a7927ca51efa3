import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { NothingReason as ServerNothingReason } from "@/db/schema";
import type { AskPage as ServerAskPage, AskView } from "@/lib/asks/api-schemas";
import type { PersonAnswer } from "@/lib/runtime";
import { type Ask, type AskPage, type AskResult, createParleyClient, type NothingReason } from "@parleyhq/client";

// client/ mirrors the API's shapes without importing them; these keep the copies in step with
// lib/asks/api-schemas.ts, and the client's outcome with the runtime's PersonAnswer.

describe("the client's types", () => {
  it("are the API's ask, page and reasons, both ways", () => {
    expectTypeOf<AskView>().toExtend<Ask>();
    expectTypeOf<Ask>().toExtend<AskView>();
    expectTypeOf<ServerAskPage>().toExtend<AskPage>();
    expectTypeOf<NothingReason>().toEqualTypeOf<ServerNothingReason>();
  });

  it("give ask's outcome the runtime's one-branch shape, typed by the schema", () => {
    expectTypeOf<AskResult<{ go: boolean }>>().toExtend<PersonAnswer<{ go: boolean }>>();
    // The global fetch (or a wrapper of it) is a fetch the client takes.
    const parley = createParleyClient({ baseUrl: new URL("http://localhost:3000"), apiKey: "pk_x", fetch });
    const Deploy = z.object({ go: z.boolean(), hours: z.int().default(1), note: z.string().transform((text) => text.length) });
    expectTypeOf(parley.ask({ to: "a@b.test", title: "t", schema: Deploy })).resolves.toEqualTypeOf<AskResult<{ go: boolean; hours: number; note: number }>>();
    expectTypeOf(parley.ask({ to: "a@b.test", title: "t" })).resolves.toEqualTypeOf<AskResult<string>>();
    expectTypeOf(parley.ask({ to: "a@b.test", title: "t", responseSchema: { type: "object" } })).resolves.toEqualTypeOf<AskResult<Record<string, unknown>>>();
    expectTypeOf(parley.waitForAnswer("id", { schema: Deploy })).resolves.toEqualTypeOf<AskResult<{ go: boolean; hours: number; note: number }>>();
    expectTypeOf(parley.waitForAnswer("id")).resolves.toEqualTypeOf<AskResult<unknown>>();
    // A strict object schema is an answer schema too.
    expectTypeOf(parley.ask({ to: "a@b.test", title: "t", schema: z.strictObject({ go: z.boolean() }) })).resolves.toEqualTypeOf<AskResult<{ go: boolean }>>();
  });
});
