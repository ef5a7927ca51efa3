import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentInTemporaryFolder, ROOT, runTool } from "./openapi-tools";

/*
 * A caller's program written against the types openapi-typescript generates from the document, and
 * checked by tsc in strict mode: it asks, reads the ask back, branches on `status`, reads `answer`,
 * `reason` and `question_id`, answers the question with a personal token, handles an error by its
 * code, and receives each webhook. `known(x)` compiles only when x's type is neither `unknown` nor
 * `any`, and `literal(x)` only when it is a union of literals, not any string.
 */
const PROGRAM = `
import createClient from "openapi-fetch";
import type { components, paths, webhooks } from "./schema";

type Schemas = components["schemas"];

/** Compiles only for a value whose type is neither unknown nor any. */
function known<T>(value: T, ...notUnknown: unknown extends T ? [never] : []): T {
  void notUnknown;
  return value;
}

/** Compiles only for a value whose type is a union of string literals, not string. */
function literal<T extends string>(value: T, ...notString: string extends T ? [never] : []): T {
  void notString;
  return value;
}

const agent = createClient<paths>({ baseUrl: "https://parley.example.org/api/v1", headers: { authorization: "Bearer pk_agent" } });
const person = createClient<paths>({ baseUrl: "https://parley.example.org/api/v1", headers: { authorization: "Bearer pt_person" } });

function onError(error: Schemas["Error"]): string {
  const code = literal(error.error.code);
  switch (code) {
    case "rate_limited":
    case "unavailable":
      return "try again after Retry-After";
    case "unknown_person":
    case "unsupported_schema":
      return \`fix \${error.error.path ?? "the request"}: \${error.error.message}\`;
    default:
      return code;
  }
}

/** What a caller makes of an ask, typed by the generated component (as a webhook receiver's code is). */
function outcome(ask: Schemas["Ask"]): string {
  const questionId: string = known(ask.question_id);
  switch (ask.status) {
    case "open": {
      const nothingYet: null = ask.answer;
      return \`waiting on question \${questionId} \${String(nothingYet)}\`;
    }
    case "answered": {
      const answer = known(ask.answer);
      const text: string = typeof answer === "string" ? answer : Object.keys(answer).join(", ");
      const at: string = ask.answered_at;
      const noReason: null = ask.reason;
      return \`\${text} at \${at} by \${ask.answered_by?.name ?? "someone"} \${String(noReason)}\`;
    }
    case "nothing": {
      const reason = literal(known(ask.reason));
      const noAnswer: null = ask.answer;
      return \`nothing: \${reason} \${String(noAnswer)}\`;
    }
    default: {
      const exhausted: never = ask;
      return exhausted;
    }
  }
}

export async function roundTrip(): Promise<string> {
  const created = await agent.POST("/asks", {
    params: { header: { "Idempotency-Key": "round-trip-1" } },
    body: {
      to: ["sam@example.org", "ada@example.org"],
      title: "Deploy?",
      response_schema: { type: "object", properties: { go: { type: "boolean", description: "Go?" } }, required: ["go"] },
      due_in_seconds: 3600,
      callback_url: "https://receiver.example.org/parley",
      escalation: [{ after_percent: 50, action: "add_group", group: "on-call" }],
    },
  });
  if (created.error) return onError(created.error);
  const read = await agent.GET("/asks/{id}", { params: { path: { id: created.data.id }, query: { wait: 30 } } });
  if (read.error) return onError(read.error);
  // openapi-fetch 0.17 leaves out of what it returns a property whose type is only null
  // (openapi-ts/openapi-typescript#2717), so its data is read here after narrowing on status.
  const ask = read.data;
  const questionId: string = known(ask.question_id);
  let said: string;
  if (ask.status === "answered") said = typeof known(ask.answer) === "string" ? String(ask.answer) : JSON.stringify(ask.answer);
  else if (ask.status === "nothing") said = literal(known(ask.reason));
  else said = literal(ask.status);
  const question = await person.GET("/questions/{id}", { params: { path: { id: questionId } } });
  if (question.error) return onError(question.error);
  const answered = await person.POST("/questions/{id}/answer", { params: { path: { id: question.data.id } }, body: { answers: { go: "y" } } });
  if (answered.error) return literal(answered.error.error.code);
  const cancelled = await agent.POST("/asks/{id}/cancel", { params: { path: { id: ask.id } } });
  if (cancelled.error) return onError(cancelled.error);
  const page = await agent.GET("/asks", { params: { query: { status: "answered", limit: 10 } } });
  if (page.error) return onError(page.error);
  const answers = page.data.data.map((each) => (each.status === "answered" ? known(each.answer) : each.status));
  return [said, cancelled.data.status, ...answers.map((each) => JSON.stringify(each))].join("\\n");
}

type WebhookBody<Name extends keyof webhooks> = webhooks[Name]["post"]["requestBody"] extends infer Body
  ? Body extends { content: { "application/json": infer Event } }
    ? Event
    : never
  : never;

export function received(event: WebhookBody<"ask.answered"> | WebhookBody<"ask.nothing"> | WebhookBody<"question.opened"> | WebhookBody<"question.reminded">): string {
  switch (literal(event.type)) {
    case "ask.answered":
      return event.type === "ask.answered" ? outcome(event.data) : "";
    case "ask.nothing":
      return event.type === "ask.nothing" ? \`\${literal(known(event.data.reason))}: \${outcome(event.data)}\` : "";
    case "question.opened":
      return event.type === "question.opened" ? \`\${event.data.id} for \${event.data.recipients.map((recipient) => recipient.email).join(", ")}\` : "";
    case "question.reminded":
      return event.type === "question.reminded" ? \`\${event.data.id} reminded at \${known(event.data.reminded_at)}\` : "";
  }
}

export type WebhookHeaders = webhooks["ask.answered"]["post"]["parameters"]["header"];
export const headersNamed: (keyof WebhookHeaders)[] = ["webhook-id", "webhook-timestamp", "webhook-signature"];
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    module: "ESNext",
    moduleResolution: "bundler",
    noEmit: true,
    types: [],
    // openapi-fetch's own declarations; the generated schema is a .ts file, checked in full.
    skipLibCheck: true,
  },
  files: ["program.ts"],
};

describe("a client generated from the OpenAPI document by openapi-typescript", () => {
  let folder: Awaited<ReturnType<typeof documentInTemporaryFolder>>;
  beforeAll(async () => {
    folder = await documentInTemporaryFolder();
    // The program imports openapi-fetch as a caller's would: from a node_modules beside it.
    await symlink(path.join(ROOT, "node_modules"), path.join(folder.folder, "node_modules"), "dir");
  });
  afterAll(() => folder?.remove());

  it("type-checks a round trip in strict mode, with no unknown reaching the program", async () => {
    const generated = await runTool(".bin/openapi-typescript", ["openapi.json", "--output", "schema.ts"], folder.folder);
    expect(generated.code, generated.stderr).toBe(0);
    await writeFile(path.join(folder.folder, "program.ts"), PROGRAM);
    await writeFile(path.join(folder.folder, "tsconfig.json"), JSON.stringify(TSCONFIG));
    const checked = await runTool("typescript/bin/tsc", ["--project", "tsconfig.json", "--pretty", "false"], folder.folder);
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });
});
