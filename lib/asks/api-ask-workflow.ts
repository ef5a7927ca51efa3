import { eq } from "drizzle-orm";
import { type ApiEscalationStep, findApiAskEscalation } from "@/db/queries/api-asks";
import { type ApiAskRow, apiAsks, apiKeys } from "@/db/schema";
import { answerOfGivenSchema, defineWorkflow, type Escalation, group, person } from "@/lib/runtime";

/** Whether an ask's `to`, as the caller gave it, names a group. */
function isGroupTo(to: unknown): to is { group: string } {
  return typeof to === "object" && to !== null && !Array.isArray(to) && typeof (to as { group?: unknown }).group === "string";
}

/** An API ask's chain (`after_percent`, `action`, `group`) as `person.ask` takes it. */
export function escalationOf(steps: readonly ApiEscalationStep[]): Escalation {
  return steps.map((step) => (step.action === "add_group" ? { at: `${step.after_percent}%`, addGroup: step.group ?? "" } : { at: `${step.after_percent}%`, remind: true }));
}

/** The field a free-text ask's one question is asked as; the API hands back its value alone. */
export const FREE_TEXT_FIELD = "answer";

/** The schema of an ask that gave none: one free-text answer. */
export function freeTextSchema(): Record<string, unknown> {
  return {
    type: "object",
    properties: { [FREE_TEXT_FIELD]: { type: "string", description: "Your answer", minLength: 1, errorMessage: "Please write an answer." } },
    required: [FREE_TEXT_FIELD],
  };
}

/**
 * The platform's own workflow behind every ask made over the HTTP API (and MCP): it puts the ask to
 * the person as one question record and one slot — exactly as a flow's `person.ask` does — and ends
 * when the answer (or nothing) arrives. Its task is the `api_asks` row.
 */
export const ApiAsk = defineWorkflow({
  name: "ApiAsk",
  tracks: apiAsks,
  initial: "Asking",
  events: {
    /** The person's answer to the schema the caller gave, or nothing with the reason. */
    Answered: answerOfGivenSchema(),
  },
  states: {
    Asking: {
      label: "Waiting for an answer",
      async enter(run) {
        const ask = run.item as ApiAskRow;
        const [key] = await run.db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, ask.apiKeyId)).limit(1);
        // Kept with the ask (api_asks.escalation), judged when it was made.
        const escalation = await findApiAskEscalation(run.db, ask.id);
        // Parks here; the answer (or nothing) arrives in `on.Answered`.
        await person.ask(run, "Answered", {
          to: isGroupTo(ask.to) ? group(ask.to.group) : (ask.assigneeId ?? ask.candidateIds),
          title: ask.title,
          dueAt: ask.dueAt,
          attempts: ask.attempts,
          responseSchema: ask.responseSchema ?? freeTextSchema(),
          questionId: ask.questionId,
          ...(key ? { askedBy: key.name } : {}),
          ...(escalation?.length ? { escalate: escalationOf(escalation) } : {}),
        });
        return undefined;
      },
      on: {
        Answered(run, answer) {
          return answer.ok ? run.goto("Answered") : run.goto("Unanswered");
        },
      },
    },
    Answered: { terminal: "success" },
    /**
     * Nobody answered (away, expired, refused, declined): the asker was told so. It ends the run as
     * every flow's run ends that a question got no answer (`error`: failed, with the question's reason),
     * so the runs list shows it under "Ended without an answer".
     */
    Unanswered: { terminal: "error", message: "nobody answered", label: "Nobody answered" },
  },
});
