import { describe, expect, it } from "vitest";
import { AppError, ERROR_CODES, type ErrorCode, isRetryableCode, kindOfCode } from "@/lib/errors";
import { definitionError, isDefinitionFailure } from "@/lib/runtime";
import { httpStatusOf } from "@/lib/server/http-status";

describe("whether a failure can be retried", () => {
  it("is known of each error by its kind: a definition error fails the same way every time", () => {
    expect(definitionError("its state Waiting has no handler")).toMatchObject({ code: "definition_error", kind: "definition", retryable: false });
    expect(new AppError("memory_not_persistent")).toMatchObject({ kind: "definition", retryable: false });
    expect(new AppError("model_unavailable")).toMatchObject({ kind: "transient", retryable: true });
    expect(new AppError("unavailable")).toMatchObject({ kind: "transient", retryable: true });
    expect(new AppError("not_found")).toMatchObject({ kind: "refusal", retryable: true });
  });

  it("is no for exactly the codes of the definition kind", () => {
    const notRetryable = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => !isRetryableCode(code));
    expect(notRetryable.sort()).toEqual(["definition_error", "memory_not_persistent"]);
  });

  it("is yes for a code Parley does not know, a workflow's own or a library's", () => {
    expect(kindOfCode("still_waiting")).toBeUndefined();
    expect(isRetryableCode("still_waiting")).toBe(true);
    expect(isRetryableCode("ECONNRESET")).toBe(true);
    expect(kindOfCode("toString")).toBeUndefined();
  });

  it("goes by the code, whichever copy of the error class threw it", () => {
    const fromAnotherBundle = Object.assign(new Error("the workflow is wrong"), { code: "definition_error" });
    expect(isDefinitionFailure(fromAnotherBundle)).toBe(true);
    expect(isDefinitionFailure(Object.assign(new Error("the model is down"), { code: "model_unavailable" }))).toBe(false);
    expect(isDefinitionFailure(new Error("no code at all"))).toBe(false);
    expect(isDefinitionFailure("a string thrown")).toBe(false);
  });

  it("leaves what the error says and carries unchanged", () => {
    const error = new AppError("definition_error", "its state Waiting has no handler");
    expect(Object.keys(error)).not.toContain("kind");
    expect(Object.keys(error)).not.toContain("retryable");
    expect(httpStatusOf(error.code)).toBe(500);
  });
});
