import { describe, expect, it } from "vitest";
import { argumentPath, askRequestOf, AskPersonArguments } from "@/lib/mcp/ask-arguments";
import { schemaFromJsonSchema } from "@/lib/questions";

describe("ask_person's arguments as the HTTP API's ask request", () => {
  it("a short question is the title alone", () => {
    expect(askRequestOf({ to: "sam@parley.test", question: "Ship it?" })).toEqual({ to: "sam@parley.test", title: "Ship it?" });
  });

  it("a long or multi-line question is its first line as the title and the whole question as the body", () => {
    const question = `Approve the migration?\nIt rewrites ${"the ledger ".repeat(40)}`;
    expect(askRequestOf({ to: "sam@parley.test", question })).toMatchObject({ title: "Approve the migration?", body: question });
    const oneLong = "Why ".repeat(200);
    const request = askRequestOf({ to: "sam@parley.test", question: oneLong });
    expect((request.title as string).length).toBe(300);
    expect(request.body).toBe(oneLong);
  });

  it("options become one choice the converter can ask, labelled and described, with an optional comment", () => {
    const request = askRequestOf({ to: "sam@parley.test", question: "Region?", options: ["eu-west", { value: "us-east", label: "US East", description: "Cheaper" }] });
    const converted = schemaFromJsonSchema(request.response_schema as Record<string, unknown>);
    expect(converted.ok).toBe(true);
    if (!converted.ok) return;
    expect(converted.schema.safeParse({ choice: "us-east" }).success).toBe(true);
    expect(converted.schema.safeParse({ choice: "us-east", comment: "until March" }).success).toBe(true);
    expect(converted.schema.safeParse({ choice: "mars" }).success).toBe(false);
    expect(converted.schema.safeParse({ comment: "no choice" }).success).toBe(false);
  });

  it("refusals of the request are named as ask_person's arguments", () => {
    expect(argumentPath("title", {})).toBe("question");
    expect(argumentPath("Idempotency-Key", {})).toBe("idempotency_key");
    expect(argumentPath("response_schema.properties.choice", { options: ["a", "b"] })).toBe("options");
    expect(argumentPath("response_schema.properties.x", {})).toBe("response_schema.properties.x");
    expect(argumentPath("to[1]", {})).toBe("to[1]");
  });

  it("the arguments refuse an empty question, one option, and a question over 10,000 characters", () => {
    expect(AskPersonArguments.safeParse({ to: "a@b.c", question: "  " }).success).toBe(false);
    expect(AskPersonArguments.safeParse({ to: "a@b.c", question: "Q?", options: ["only"] }).success).toBe(false);
    expect(AskPersonArguments.safeParse({ to: "a@b.c", question: "x".repeat(10_001) }).success).toBe(false);
  });
});
