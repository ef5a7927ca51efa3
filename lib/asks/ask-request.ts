import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/errors";

/** The longest deadline an ask may have. */
export const MAX_DUE_SECONDS = 365 * 24 * 60 * 60;
/** How large `metadata` may be, as JSON. */
export const MAX_METADATA_BYTES = 4096;
/** Most people one ask may name in `to`. */
export const MAX_RECIPIENTS = 50;
/** Most refused submissions an ask may allow. */
export const MAX_ATTEMPTS = 10;
/** Most steps one ask's escalation chain may have. */
export const MAX_ESCALATION_STEPS = 10;

const text = (max: number) => z.string().max(max, `At most ${max} characters.`);

/** An email as people write it: surrounding spaces and capitals do not matter. */
const Email = z.string().meta({ format: "email" }).trim().toLowerCase().pipe(z.email("Give the email of a person in Parley.").max(254));

/** `to`: one email, several (candidates: any one may answer), or a group. */
const To = z.union([
  Email,
  z.array(Email).min(1, "Name at least one person.").max(MAX_RECIPIENTS, `Name at most ${MAX_RECIPIENTS} people.`),
  z.strictObject({ group: text(100).min(1, "Name the group.") }),
]);

/**
 * One step of an ask's escalation chain: at `after_percent` of the time from the ask to its deadline,
 * remind whoever it is for, or add a group whose members may then answer too.
 */
const EscalationStepBody = z
  .strictObject({
    after_percent: z
      .number()
      .gt(0, "More than 0: a step comes after the ask.")
      .lt(100, "Less than 100: at the deadline the ask closes with nothing (expired).")
      .describe("When, as a percentage of the time from the ask to its deadline."),
    action: z.enum(["remind", "add_group"]).describe("remind: remind whoever it is for; add_group: the group's members may answer too."),
    group: text(100).min(1, "Name the group.").optional().describe("The group to add (add_group only)."),
  })
  // The rule superRefine applies, as JSON Schema for the OpenAPI document: a group with add_group, and only then.
  .meta({
    if: { properties: { action: { const: "add_group" } } },
    then: { properties: { group: { type: "string" } }, required: ["group"] },
    else: { not: { properties: { group: { type: "string" } }, required: ["group"] } },
  })
  .superRefine((step, context) => {
    if (step.action === "add_group" && step.group === undefined) context.addIssue({ code: "custom", path: ["group"], message: "add_group needs the group to add.", input: undefined });
    if (step.action === "remind" && step.group !== undefined) context.addIssue({ code: "custom", path: ["group"], message: "remind takes no group.", input: step.group });
  });

/** An ask's escalation chain as it arrives. */
export type EscalationBody = z.output<typeof EscalationStepBody>[];

/** The body of `POST /api/v1/asks`, as it arrives (snake_case). Unknown fields are refused, so a misspelt one is never silently ignored. */
export const AskRequestBody = z.strictObject({
  to: To,
  title: z.string().trim().min(1, "Give the question a title: it is what the person reads first.").max(300, "At most 300 characters."),
  body: text(10_000).nullish(),
  context: z
    .record(text(100).min(1), z.union([text(2_000), z.number(), z.boolean()]))
    .refine((context) => Object.keys(context).length <= 50, "At most 50 facts.")
    .nullish(),
  response_schema: z.record(z.string(), z.unknown()).nullish(),
  due_in_seconds: z.number().int("A whole number of seconds.").min(1, "At least 1 second.").max(MAX_DUE_SECONDS, "At most a year.").nullish(),
  due_at: z.string().max(64).meta({ format: "date-time" }).nullish().describe("The deadline: an ISO 8601 date-time with its offset (`2026-12-04T17:00:00Z`). Give due_in_seconds or due_at, not both."),
  attempts: z.number().int("A whole number.").min(1, "At least 1.").max(MAX_ATTEMPTS, `At most ${MAX_ATTEMPTS}.`).nullish(),
  callback_url: text(2_048).meta({ format: "uri" }).nullish().describe("An http or https URL, without a user name or password, that the ask's end is posted to (`ask.answered`, `ask.nothing`)."),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  escalation: z
    .array(EscalationStepBody)
    .min(1, "Give at least one step, or leave escalation out.")
    .max(MAX_ESCALATION_STEPS, `At most ${MAX_ESCALATION_STEPS} steps.`)
    .nullish()
    .describe("Steps fired while the ask is open, each once, at fractions of its deadline (which it needs): remind, or add a group."),
})
  // The rule parseAskRequest applies, for the OpenAPI document: due_in_seconds or due_at, not both.
  .meta({ not: { required: ["due_in_seconds", "due_at"], properties: { due_in_seconds: { type: "integer" }, due_at: { type: "string" } } } });
export type AskRequestBody = z.output<typeof AskRequestBody>;

/** An ask request judged: what the service needs, normalised. */
export interface AskRequest {
  /** `to` as given, echoed back. */
  to: AskRequestBody["to"];
  title: string;
  body: string | null;
  context: Record<string, string | number | boolean> | null;
  responseSchema: Record<string, unknown> | null;
  dueAt: Date | null;
  attempts: number;
  callbackUrl: string | null;
  metadata: Record<string, unknown> | null;
  /** The escalation chain, steps in the order given (they fire in the order of their moments). */
  escalation: EscalationBody | null;
  /** SHA-256 of the request as judged (a deadline given in seconds counts as given, not as the moment it makes). */
  hash: string;
}

/** `a.b[2].c` from a zod issue's path. */
export function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, segment) => (typeof segment === "number" ? `${text}[${segment}]` : text === "" ? String(segment) : `${text}.${String(segment)}`), "");
}

/** JSON with object keys sorted, so equal requests hash equally whatever order their keys came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, each]) => each !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, each]) => `${JSON.stringify(key)}:${canonicalJson(each)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Judges the body of an ask: a malformed one is refused with 400 naming the field; a deadline that
 * is not a date, or has passed, or metadata over 4 KB, with 422. Who `to` names and whether the
 * schema can be asked are the service's to judge (they need the database and the converter).
 */
export function parseAskRequest(body: unknown, now: Date): AskRequest {
  // reportInput: zod 4 leaves `input` out of its issues otherwise, and a wrong type would read as missing.
  const parsed = AskRequestBody.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = pathText(issue.path);
    const message =
      issue.code === "unrecognized_keys"
        ? `Unknown field${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}.`
        : issue.code === "invalid_type" && issue.input === undefined
          ? `${path} is required.`
          : `${path === "" ? "The request" : path}: ${issue.message}`;
    throw new AppError("invalid_input", message, { path: issue.code === "unrecognized_keys" ? (issue.keys[0] ?? path) : path });
  }
  const request = parsed.data;
  if (request.due_in_seconds != null && request.due_at != null) {
    throw new AppError("invalid_input", "Give due_in_seconds or due_at, not both.", { path: "due_at" });
  }
  let dueAt: Date | null = null;
  if (request.due_in_seconds != null) dueAt = new Date(now.getTime() + request.due_in_seconds * 1000);
  if (request.due_at != null) {
    // An ISO 8601 date-time with its offset: a bare date or a local time would be read in the server's zone.
    const valid = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(request.due_at);
    const time = valid ? Date.parse(request.due_at) : Number.NaN;
    if (Number.isNaN(time)) throw new AppError("unprocessable", "due_at must be an ISO 8601 date-time with its offset, like 2026-12-04T17:00:00Z.", { path: "due_at" });
    if (time <= now.getTime()) throw new AppError("unprocessable", `due_at (${request.due_at}) has already passed.`, { path: "due_at" });
    if (time - now.getTime() > MAX_DUE_SECONDS * 1000) throw new AppError("unprocessable", "due_at is more than a year away.", { path: "due_at" });
    dueAt = new Date(time);
  }
  let callbackUrl: string | null = null;
  if (request.callback_url != null) {
    let url: URL | undefined;
    try {
      url = new URL(request.callback_url);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
      throw new AppError("invalid_input", "callback_url must be an http or https URL.", { path: "callback_url" });
    }
    // fetch cannot send such a URL at all, and the password would be kept and shown wherever the URL is.
    // The message does not repeat the URL: it may be logged.
    if (url.username !== "" || url.password !== "") {
      throw new AppError("invalid_input", "callback_url must not carry a user name or password: each callback is signed with the API key's webhook secret for the receiver to verify.", {
        path: "callback_url",
      });
    }
    callbackUrl = url.toString();
  }
  const metadata = request.metadata ?? null;
  if (metadata && Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) {
    throw new AppError("unprocessable", `metadata is at most ${MAX_METADATA_BYTES} bytes as JSON.`, { path: "metadata" });
  }
  const escalation = request.escalation ?? null;
  if (escalation && !dueAt) {
    throw new AppError("unprocessable", "escalation needs a deadline: give due_in_seconds or due_at, whose fractions its steps are.", { path: "escalation" });
  }
  const to = request.to;
  const judged = {
    to,
    title: request.title,
    body: request.body ?? null,
    context: request.context ?? null,
    responseSchema: request.response_schema ?? null,
    due: request.due_in_seconds != null ? { in_seconds: request.due_in_seconds } : dueAt ? { at: dueAt.toISOString() } : null,
    attempts: request.attempts ?? 3,
    callbackUrl,
    metadata,
    // Left out when not given, so the requests made before chains existed hash as they did.
    ...(escalation ? { escalation } : {}),
  };
  return {
    to,
    title: judged.title,
    body: judged.body,
    context: judged.context,
    responseSchema: judged.responseSchema,
    dueAt,
    attempts: judged.attempts,
    callbackUrl,
    metadata,
    escalation,
    hash: createHash("sha256").update(canonicalJson(judged)).digest("hex"),
  };
}
