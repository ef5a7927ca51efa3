import type { z } from "zod";
import { membersOf } from "@/db/queries/group-routing";
import { updateTrackedStatus } from "@/db/queries/runtime-jobs";
import { closeQuestionWithNothing, findQuestion, insertPersonQuestion, type QuestionRow } from "@/db/queries/runtime-questions";
import { newTimeOrderedId } from "@/lib/ids";
import { isUnsupportedSchemaError, type QuestionSpec, schemaFromJsonSchema, specFromSchema, startAttempts } from "@/lib/questions";
import type { RuntimeChange } from "./announce";
import { definitionError } from "./definition-errors";
import { durationToMilliseconds } from "./duration";
import { escalationSteps, planEscalation } from "./escalation";
import { questionnaireOf, takesGivenSchema } from "./person";
import { questionAskedData } from "./question-events";
import { resolveRecipients } from "./recipients";
import type { RuntimeContext } from "./runtime-context";
import type { AskPersonOptions, PersonAsked, RunHandle } from "./types";

/** What asking a person needs from its runtime (the reads before the ask go through the run's own `db`). */
export type AskPersonContext = Pick<RuntimeContext, "now" | "commit" | "workflowNamed">;

/** The zod schema of a JSON Schema that came with an ask; one Parley cannot ask is the asker's mistake, told at the ask. */
export function givenSchema(json: Record<string, unknown>): z.ZodObject {
  const converted = schemaFromJsonSchema(json);
  if (!converted.ok) throw definitionError(`its response schema cannot be asked as questions (${converted.path || "the schema"}: ${converted.message})`);
  return converted.schema;
}

/**
 * The spec of a questionnaire about to be asked. One the form cannot ask is the workflow's mistake
 * (checked when Parley starts, so rare here): a definition error, which fails the run for good
 * rather than leaving it to be retried into the same failure.
 */
function askableSpec(schema: z.ZodObject, title: string | undefined, where: string): QuestionSpec {
  try {
    return specFromSchema(schema, title ? { title } : {});
  } catch (error) {
    if (!isUnsupportedSchemaError(error)) throw error;
    throw definitionError(`${where} cannot be asked (${error.path === "" ? "the questionnaire itself" : `field "${error.path}"`}: ${error.problem})`);
  }
}

/** What asking a person needs from the job it runs in. */
export interface AskPersonScope {
  workflowInstanceId: string;
  stepKey: string | null;
}

/** `person.ask` inside a job: the question record and its slot, or nothing at once for someone away. */
export async function askPerson(
  deps: AskPersonContext,
  scope: AskPersonScope,
  run: RunHandle<string, unknown>,
  event: string,
  options: AskPersonOptions,
): Promise<PersonAsked> {
  const workflow = deps.workflowNamed(run.workflow);
  const declared = workflow.events[event];
  const given = takesGivenSchema(declared);
  if (given && !options.responseSchema) {
    throw definitionError(`its state ${run.state} asks a person for ${event}, declared with answerOfGivenSchema(), without a responseSchema`);
  }
  const schema = given ? givenSchema(options.responseSchema!) : questionnaireOf(declared);
  if (!schema) {
    throw definitionError(
      `its state ${run.state} asks a person for the event ${JSON.stringify(event)}, which it does not declare with answerOf(…) — declare \`events: { ${event}: answerOf(Schema) }\` or name a declared one`,
    );
  }
  if (!workflow.states[run.state]?.on?.[event]) {
    throw definitionError(`its state ${run.state} asks a person but has no \`on: { ${event}(run, answer) }\` to take the answer`);
  }
  const where = `its state ${run.state}'s question for ${event}`;
  const planned = planEscalation(options.escalate, Boolean(options.dueAt ?? options.within), where);
  // Someone away goes to their delegate or is left out; with several candidates, the others are still asked.
  const { assigneeId, candidateIds, candidateGroupIds, delegatedFrom, nobody } = await resolveRecipients(run.db, options.to);
  const spec = askableSpec(schema, options.title, `its state ${run.state}'s questionnaire for ${event}`);
  const attempts = startAttempts(options.attempts);
  const at = deps.now();
  const id = options.questionId ?? newTimeOrderedId();
  const slotId = newTimeOrderedId();
  const dueAt = options.dueAt ?? (options.within ? new Date(at.getTime() + durationToMilliseconds(options.within)) : null);
  const escalations = dueAt ? await escalationSteps(run.db, planned, at, dueAt, where) : [];
  const base = { taskId: run.taskId, workflowInstanceId: scope.workflowInstanceId, at };
  // Who is told live: the people asked, and the groups' members as they are now.
  const userIds = [...new Set([...(assigneeId ? [assigneeId] : []), ...candidateIds, ...(await membersOf(run.db, candidateGroupIds))])];
  const to = options.to;
  return deps.commit(async (tx) => {
    const asked = await insertPersonQuestion(tx, {
      id,
      slotId,
      taskId: run.taskId,
      workflowInstanceId: scope.workflowInstanceId,
      workflow: workflow.name,
      state: run.state,
      event,
      stepKey: scope.stepKey,
      title: spec.title ?? null,
      spec,
      responseSchema: given ? options.responseSchema! : null,
      attemptsAllowed: attempts.allowed,
      assigneeId,
      candidateIds,
      candidateGroupIds,
      delegatedFrom,
      askedBy: options.askedBy ?? null,
      dueAt,
      escalations,
      at,
      trackedStatus: (onlyIf) => updateTrackedStatus(workflow.tracks, run.taskId, "waiting", onlyIf),
      events: [
        { ...base, kind: "question-asked", data: questionAskedData(id, spec, { to, attempts: attempts.allowed }) },
        { ...base, kind: "slot-opened", data: { slotId, event, assigneeId, candidates: candidateIds.length, dueAt: dueAt?.toISOString() ?? null } },
        { ...base, kind: "parked", data: { questions: [id] } },
      ],
    });
    if (!asked.created) {
      const existing = await findQuestion(tx, asked.id);
      const value: PersonAsked =
        existing?.status === "nothing" && existing.reason
          ? { status: "nothing", questionId: asked.id, reason: existing.reason }
          : { status: "asked", questionId: asked.id, slotId: asked.slotId };
      return { value, changes: [] };
    }
    const changes: RuntimeChange[] = [
      { kind: "question-asked", taskId: run.taskId, questionId: id, userIds },
      { kind: "slot-opened", taskId: run.taskId, slotId, userIds },
      { kind: "run-status", taskId: run.taskId, status: "waiting", userIds: [] },
    ];
    if (!nobody) return { value: { status: "asked", questionId: id, slotId } as PersonAsked, changes };
    // Nobody who can take it is left a question: the flow is told at once, through its own handler.
    const row = (await findQuestion(tx, id))!;
    await closeQuestionWithNothing(tx, {
      questionId: id,
      reason: nobody,
      payload: { ok: false, reason: nobody },
      events: [{ ...base, kind: "nothing", data: { questionId: id, reason: nobody, by: null } }],
      at,
    });
    return { value: { status: "nothing", questionId: id, reason: nobody } as PersonAsked, changes: [...changes, ...closeChanges(row)] };
  });

  function closeChanges(row: QuestionRow): RuntimeChange[] {
    return [
      { kind: "question-closed", taskId: row.taskId, questionId: row.id, userIds },
      { kind: "slot-finished", taskId: row.taskId, slotId, userIds },
    ];
  }
}
