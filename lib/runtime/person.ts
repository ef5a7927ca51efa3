import { z } from "zod";
import { NOTHING_REASONS } from "@/db/schema";
import { currentRunScope } from "./run-scope";
import type { AskPersonOptions, EventSchemas, PersonAnswer, PersonAsked, QuestionnaireEvent, RunHandle } from "./types";

/**
 * Each answer event's questionnaire: a schema in code, or `"given"` — the schema comes with each ask, as
 * data. Kept on `globalThis`: Next.js bundles this module once per route, and a workflow declared where
 * the server started (its runtime and registry are shared by every route) is read in a page's bundle.
 */
const QUESTIONNAIRES = Symbol.for("parley.answer-questionnaires");
const questionnaires = ((globalThis as { [QUESTIONNAIRES]?: WeakMap<z.ZodType, z.ZodType | "given"> })[QUESTIONNAIRES] ??= new WeakMap());

/**
 * The event a workflow declares to receive a person's answer to `schema`:
 * `events: { Reimbursed: answerOf(Reimbursement) }`, handled by `on: { Reimbursed(run, answer) }`
 * with `answer` a {@link PersonAnswer}. The schema stays in code: submissions are judged by it,
 * server-side; the value in the event was judged already and is not parsed again.
 */
export function answerOf<Schema extends z.ZodObject>(schema: Schema) {
  const event = z.union([
    z.object({ ok: z.literal(true), value: z.custom<z.output<Schema>>((value) => typeof value === "object" && value !== null) }),
    z.object({ ok: z.literal(false), reason: z.enum(NOTHING_REASONS), note: z.string().optional() }),
  ]);
  questionnaires.set(event, schema);
  return event as z.ZodType<PersonAnswer<z.output<Schema>>, PersonAnswer<z.output<Schema>>>;
}

/**
 * The event a workflow declares to receive a person's answer to a schema that comes with each ask, as
 * data: `events: { Answered: answerOfGivenSchema() }`, asked with `person.ask(run, "Answered", {
 * responseSchema })` (a JSON Schema object, kept with the question and the only judge of its
 * answers). The value is the object that schema accepted — what a platform-hosted ask made over the
 * HTTP API receives.
 */
export function answerOfGivenSchema() {
  const event = z.union([
    z.object({ ok: z.literal(true), value: z.record(z.string(), z.unknown()) }),
    z.object({ ok: z.literal(false), reason: z.enum(NOTHING_REASONS), note: z.string().optional() }),
  ]);
  questionnaires.set(event, "given");
  return event as z.ZodType<PersonAnswer<Record<string, unknown>>, PersonAnswer<Record<string, unknown>>>;
}

/** The questionnaire schema an {@link answerOf} event was declared for, if it is one (not for {@link answerOfGivenSchema}). */
export function questionnaireOf(event: z.ZodType | undefined): z.ZodObject | undefined {
  const schema = event ? questionnaires.get(event) : undefined;
  return schema === "given" ? undefined : (schema as z.ZodObject | undefined);
}

/** Whether an event receives a person's answer: declared with {@link answerOf} or {@link answerOfGivenSchema}. */
export function isAnswerEvent(event: z.ZodType | undefined): boolean {
  return event !== undefined && questionnaires.has(event);
}

/** Whether an event's questionnaire comes with each ask ({@link answerOfGivenSchema}). */
export function takesGivenSchema(event: z.ZodType | undefined): boolean {
  return event !== undefined && questionnaires.get(event) === "given";
}

/** The person a flow hands work to. Not an agent: no turns, no turn clock, no handoff edge. */
export const person = {
  /**
   * Puts the questionnaire of the workflow's event `event` (declared `events: { <event>: answerOf(Schema) }`)
   * to one person from a workflow's state code, and parks the run exactly as an agent's ask does: one
   * question record holding the spec, one slot for the answer. An event the workflow did not declare
   * with `answerOf` does not compile. Stay in the state (return nothing): its `on.<event>` handler
   * receives the typed value, or nothing with the reason. A person marked away gets no question —
   * the handler gets nothing (`away`) at once.
   */
  ask<S extends string, Item, E extends EventSchemas, K extends QuestionnaireEvent<E>>(
    run: RunHandle<S, Item, E>,
    event: K,
    options: AskPersonOptions,
  ): Promise<PersonAsked> {
    return currentRunScope("person.ask").engine.askPerson(run as unknown as RunHandle<string, unknown>, event, options);
  },
};
