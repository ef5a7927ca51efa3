import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { defineFormAction } from "@/lib/server/define-action";

vi.mock("@/lib/server/session", () => ({ authorize: async () => ({ id: "u1", roles: ["operator"], name: "Omar", email: "omar@parley.test" }) }));

describe("an AppError thrown by another copy of the errors module (as Next.js bundles one per layer)", () => {
  async function anotherCopy() {
    vi.resetModules();
    return import("@/lib/errors");
  }

  it("is still an AppError to this copy", async () => {
    const other = await anotherCopy();
    expect(other.AppError).not.toBe(AppError);
    expect(new other.AppError("conflict", "Already open.") instanceof AppError).toBe(true);
    expect(new Error("plain") instanceof AppError).toBe(false);
  });

  it("reaches the caller as its code and message, not as an internal error", async () => {
    const other = await anotherCopy();
    const action = defineFormAction({
      roles: [],
      input: z.object({}),
      async handler() {
        throw new other.AppError("conflict", "This claim already has a review open.");
      },
    });
    const form = new FormData();
    expect(await action(form)).toEqual({ ok: false, error: { code: "conflict", message: "This claim already has a review open." } });
  });
});
