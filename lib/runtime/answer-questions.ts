import type { z } from "zod";
import type { Db } from "@/db/client";
import { updateTrackedStatus } from "@/db/queries/runtime-jobs";
import {
  closeQuestionWithNothing,
  countRefusedAttempt,
  depositAnswer,
  findQuestion,
  insertPersonQuestion,
  listAnswerableQuestions,
  mayAnswer,
  partiesOf,
  type QuestionPageRequest,
  type QuestionRow,
} from "@/db/queries/runtime-questions";
import { membersOf } from "@/db/queries/group-routing";
import { DECLINE_NOTE_MAX_LENGTH, type NothingReason } from "@/db/schema";
import {
  type AnswerValidation,
  attemptLabel,
  isEmptyAnswer,
  rawFromFormAnswer,
  rawFromTextAnswers,
  type FormAnswer,
  formatAnswerText,
  isUnsupportedSchemaError,
  type QuestionSpec,
  schemaFromJsonSchema,
  specFromSchema,
  startAttempts,
  validateFormAnswer,
  validateTextAnswers,
} from "@/lib/questions";
import { AGENT_ANSWER_FIELD, agentAskSchema, nothingText } from "./agent-question";
import type { Commit, RuntimeChange } from "./announce";
import type { AnyWorkflow, RunHandle } from "./define-workflow";
import { definitionError } from "./definition-errors";
import { durationToMilliseconds } from "./duration";
import { escalationSteps, planEscalation } from "./escalation";
import { type AskPersonOptions, type PersonAsked, questionnaireOf, takesGivenSchema } from "./person";
import { questionAskedData } from "./question-events";
import { resolveRecipients } from "./recipients";
import { inSpan } from "./tracing";
import { isUuid, newTimeOrderedId } from "@/lib/ids";

/** What a person submitted: a posted browser form, or text typed per field (terminal, answers file). */
export type SubmittedAnswer = { form: FormAnswer } | { text: Readonly<Record<string, string | null | undefined>> };

/** Why a submission or a closing was not taken, for a screen to say so. */
export type QuestionUnavailable =
  | { status: "not_found"; questionId: string; message: string }
  /** The answer is fine, but the workflow could not take it (its event's schema refuses the payload): nothing was committed. */
  | { status: "definition_error"; questionId: string; message: string }
  | { status: "forbidden"; questionId: string; message: string }
  | {
      status: "conflict";
      questionId: string;
      /** Says who answered and when, or that it closed with nothing and why. */
      message: string;
      answeredBy: { id: string; name: string | null } | null;
      answeredAt: Date | null;
      /** Set when the question ended with nothing. */
      reason: NothingReason | null;
    };

/** The fields' refusals, as {@link validateFormAnswer} words them. */
type Refused = Extract<AnswerValidation<unknown>, { ok: false }>;

/** The outcome of {@link QuestionDesk.submitAnswer}, a union on `status` for the screen to render. */
export type SubmitAnswerResult =
  | { status: "answered"; questionId: string; value: unknown }
  | ({
      status: "refused";
      questionId: string;
      /** The attempt the person is about to make: "attempt 2 of 3". */
      attempt: string;
      attemptsLeft: number;
      /** Whether this refusal used an attempt: one that answered nothing at all does not. */
      counted: boolean;
      /** What was submitted, as raw values, to hand back beside the refusals. */
      raw: Record<string, unknown>;
    } & Omit<Refused, "ok">)
  | ({ status: "closed"; questionId: string; reason: "refused"; raw: Record<string, unknown> } & Omit<Refused, "ok">)
  /**
   * Typed text named a field the question does not have (a misspelt path from an answers file or the
   * API): nothing was judged and no attempt counted, so a typo never costs the person an attempt,
   * nor is an optional field's answer silently dropped.
   */
  | { status: "invalid_input"; questionId: string; message: string; path: string }
  | QuestionUnavailable;

/** The outcome of {@link QuestionDesk.closeWithNothing}. */
export type CloseQuestionResult = { status: "closed"; questionId: string; reason: NothingReason } | QuestionUnavailable;

/** The outcome of {@link QuestionDesk.decline}: closed with nothing (`declined`), or why not; a note too long is `invalid_input`. */
export type DeclineQuestionResult =
  | { status: "closed"; questionId: string; reason: "declined"; note: string | null }
  | { status: "invalid_input"; questionId: string; message: string; path: "note" }
  | QuestionUnavailable;

/** The question API a surface (the inbox, the terminal) drives; part of the runtime. */
export interface QuestionDesk {
  /**
   * Judges a submission with the flow's own schema (from the workflow in code, never from the
   * client). Refused: nothing of the answer is committed, one attempt is counted (none when nothing
   * at all was answered), and the refusals
   * come back by field path with the next attempt's label — or, when the attempts ran out, the
   * question closes and the flow gets nothing (`refused`). Accepted: deposited exactly once.
   */
  submitAnswer(input: { questionId: string; by: string; answer: SubmittedAnswer }): Promise<SubmitAnswerResult>;
  /**
   * Ends an open question with nothing, now: the surface was told its person is away, found nobody
   * at the terminal, or its asker withdrew it (`cancelled`). The flow gets nothing with that reason;
   * it is never recorded as the person's decision. `by` (when given) must be someone the question is for.
   */
  closeWithNothing(input: { questionId: string; reason: "away" | "non-interactive" | "cancelled"; by?: string }): Promise<CloseQuestionResult>;
  /**
   * "I can't answer this": a person the question is for ends it with nothing, reason `declined`, and
   * may leave a note the asker receives with it (trimmed; blank is none; at most
   * {@link DECLINE_NOTE_MAX_LENGTH} characters). The question ends for everyone it was put to. A
   * question another candidate has taken is theirs to decline. Declining one already declined by the
   * same person is answered alike.
   */
  decline(input: { questionId: string; by: string; note?: string | null }): Promise<DeclineQuestionResult>;
  /** The questions a person may answer now, soonest due first (one indexed query): all, or one page. */
  questionsFor(userId: string, page?: QuestionPageRequest): Promise<QuestionRow[]>;
  /** A question with its slot, if it is for this person (or they answered or declined it); otherwise null. */
  questionFor(questionId: string, userId: string): Promise<QuestionRow | null>;
}

interface DeskDependencies {
  db: Db;
  now: () => Date;
  commit: Commit;
  workflowNamed(name: string): AnyWorkflow;
}

function isAgentAsk(question: QuestionRow): boolean {
  return question.conversationId !== null;
}

function unavailable(question: QuestionRow, at: Date): QuestionUnavailable | undefined {
  const slot = question.slot;
  if (question.status === "answered" || slot?.status === "finished") {
    const who = question.answeredByName ?? slot?.finishedByName ?? "someone else";
    const when = question.answeredAt ?? slot?.finishedAt ?? null;
    const by = question.answeredBy ?? slot?.finishedBy ?? null;
    return {
      status: "conflict",
      questionId: question.id,
      message: `Already answered by ${who} at ${when?.toISOString() ?? "an earlier time"}.`,
      answeredBy: by ? { id: by, name: question.answeredByName ?? slot?.finishedByName ?? null } : null,
      answeredAt: when,
      reason: null,
    };
  }
  if (question.reason || question.status === "nothing" || slot?.status === "expired" || (slot?.dueAt && slot.dueAt <= at)) {
    const reason = question.reason ?? "expired";
    const message =
      reason === "expired"
        ? `This question closed unanswered at ${slot?.dueAt?.toISOString() ?? "its due time"}.`
        : reason === "declined"
          ? `${question.declinedByName ?? "Someone it was put to"} declined this question${question.declineNote ? `: “${question.declineNote}”` : "."}`
          : `This question closed with no answer (${reason}).`;
    return { status: "conflict", questionId: question.id, message, answeredBy: null, answeredAt: null, reason };
  }
  if (!slot || slot.status !== "open") {
    return { status: "conflict", questionId: question.id, message: "This question is no longer open.", answeredBy: null, answeredAt: null, reason: null };
  }
  return undefined;
}

/** Another candidate has taken the question ("I'll take it"): only they (or the assignee) may answer it now. */
function claimedByAnother(question: QuestionRow, by: string | undefined): QuestionUnavailable | undefined {
  const slot = question.slot;
  if (by === undefined || !slot?.claimedBy || mayAnswer(question, by)) return undefined;
  const when = slot.claimedAt ? ` at ${slot.claimedAt.toISOString()}` : "";
  return {
    status: "conflict",
    questionId: question.id,
    message: `${slot.claimedByName ?? "Another member"} took this question${when}: only they can answer it, unless they give it back.`,
    answeredBy: null,
    answeredAt: null,
    reason: null,
  };
}

/** The question API over one runtime's database, clock and workflows. */
export function createQuestionDesk(deps: DeskDependencies): QuestionDesk {
  const { db, now, commit } = deps;

  async function load(questionId: string, by: string | undefined): Promise<QuestionRow | QuestionUnavailable> {
    // A malformed id names no question; a database that fails is an error, never "no such question".
    const question = isUuid(questionId) ? await findQuestion(db, questionId) : undefined;
    if (!question) return { status: "not_found", questionId, message: "There is no such question." };
    if (by !== undefined && !partiesOf(question).includes(by)) {
      return { status: "forbidden", questionId, message: "This question is not for you." };
    }
    return question;
  }

  function schemaOf(question: QuestionRow): z.ZodObject {
    if (isAgentAsk(question)) return agentAskSchema(question.spec);
    // A schema that came with the ask as data was checked when it was asked; it judges its answers.
    if (question.responseSchema) return givenSchema(question.responseSchema);
    const workflow = deps.workflowNamed(question.workflow ?? "");
    const schema = questionnaireOf(workflow.events[question.event ?? ""]);
    if (!schema) throw new Error(`${workflow.name} declares no answerOf(...) event ${question.event}`);
    return schema;
  }

  /**
   * Why the workflow could not take this payload into the question's slot, or undefined when it
   * can: the slot's event is not declared, or its schema refuses what the runtime would deposit.
   */
  function refusedByWorkflow(question: QuestionRow, payload: unknown): string | undefined {
    if (!question.workflow || !question.event) return undefined;
    let workflow: AnyWorkflow;
    try {
      workflow = deps.workflowNamed(question.workflow);
    } catch {
      return undefined;
    }
    const schema = workflow.events[question.event];
    const wrong = schema
      ? (() => {
          const parsed = schema.safeParse(payload);
          if (parsed.success) return undefined;
          const issues = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}`).join("; ");
          return `its ${question.event} event does not take this answer (${issues})`;
        })()
      : `it does not declare the ${question.event} event this question is answered by`;
    return wrong
      ? `Your answer was not sent: the workflow ${workflow.name} is wrong — ${wrong}. Nothing was recorded; an operator must fix the workflow.`
      : undefined;
  }

  /** What the flow's event receives: the typed answer for a questionnaire; for an agent's ask, the words for its call's result. */
  function payloadOf(question: QuestionRow, answer: { value: unknown } | { reason: NothingReason; note?: string | null }): unknown {
    if (isAgentAsk(question)) {
      if ("reason" in answer) return { text: nothingText(answer.reason, answer.note), questionId: question.id };
      const field = question.spec.fields[0];
      const value = (answer.value as Record<string, unknown>)[AGENT_ANSWER_FIELD];
      return { text: field ? formatAnswerText(field, value) : String(value), questionId: question.id };
    }
    if (!("reason" in answer)) return { ok: true, value: answer.value };
    return answer.note ? { ok: false, reason: answer.reason, note: answer.note } : { ok: false, reason: answer.reason };
  }

  function closeChanges(question: QuestionRow): RuntimeChange[] {
    const userIds = partiesOf(question);
    const slotId = question.slot?.id;
    return [
      { kind: "question-closed", taskId: question.taskId, questionId: question.id, userIds },
      { kind: "slot-finished", taskId: question.taskId, ...(slotId ? { slotId } : {}), userIds },
    ];
  }

  async function close(question: QuestionRow, reason: NothingReason, by: string | null, tx: Db, at: Date, note: string | null = null): Promise<boolean> {
    const declined = reason === "declined" && by !== null ? { by, note } : undefined;
    return closeQuestionWithNothing(tx, {
      questionId: question.id,
      reason,
      ...(declined ? { declined } : {}),
      payload: payloadOf(question, { reason, note }),
      events: [
        {
          taskId: question.taskId,
          workflowInstanceId: question.workflowInstanceId,
          kind: "nothing",
          data: { questionId: question.id, reason, by, ...(note ? { note } : {}) },
          at,
        },
      ],
      at,
    });
  }

  async function explain(questionId: string): Promise<QuestionUnavailable> {
    const current = await load(questionId, undefined);
    if ("status" in current && !("spec" in current)) return current;
    return (
      unavailable(current as QuestionRow, now()) ?? {
        status: "conflict",
        questionId,
        message: "Someone else changed this question at the same moment; please try again.",
        answeredBy: null,
        answeredAt: null,
        reason: null,
      }
    );
  }

  return {
    async submitAnswer({ questionId, by, answer }) {
      const loaded = await load(questionId, by);
      if (!("spec" in loaded)) return loaded;
      const question = loaded;
      const at = now();
      const closed = unavailable(question, at) ?? claimedByAnother(question, by);
      if (closed) return closed;
      const schema = schemaOf(question);
      // A questionnaire is judged by the flow's schema as its code says now; an agent's ask by its stored words.
      const spec = isAgentAsk(question) ? question.spec : specFromSchema(schema);
      if ("text" in answer) {
        const unknown = Object.keys(answer.text).find((path) => !spec.fields.some((field) => field.path === path));
        if (unknown !== undefined) {
          const known = spec.fields.map((field) => field.path).join(", ");
          // The caller's own text, echoed: cut short, so a huge key is not sent back whole.
          const named = unknown.length > 100 ? `${unknown.slice(0, 100)}…` : unknown;
          return { status: "invalid_input", questionId, message: `This question has no field “${named}”: its fields are ${known}.`, path: named };
        }
      }
      const verdict = "form" in answer ? await validateFormAnswer(schema, answer.form, spec) : await validateTextAnswers(schema, answer.text, spec);
      if (verdict.ok) {
        const payload = payloadOf(question, { value: verdict.value });
        // The person is told "answered" only for an answer the flow can take: its event's schema judges the payload first.
        const wrong = refusedByWorkflow(question, payload);
        if (wrong) return { status: "definition_error", questionId, message: wrong };
        // The deposit's span: the job it queues carries it, so the run resumed by that job continues this trace.
        const deposited = () => commit(async (tx) => {
          const wrote = await depositAnswer(tx, {
            questionId,
            slotId: question.slot!.id,
            by,
            payload,
            answer: isAgentAsk(question) ? payloadOf(question, { value: verdict.value }) : verdict.value,
            at,
          });
          const userIds = partiesOf(question);
          return {
            value: wrote,
            changes: wrote
              ? [
                  { kind: "question-answered", taskId: question.taskId, questionId, userIds },
                  { kind: "slot-finished", taskId: question.taskId, slotId: question.slot!.id, userIds },
                ]
              : [],
          };
        }, { oneStatement: true });
        const won = await inSpan("parley.deposit", { "parley.question_id": questionId, "parley.task_id": question.taskId, "parley.workflow": question.workflow ?? "" }, async (span) => {
          const wrote = await deposited();
          span.setAttribute("parley.deposited", wrote);
          return wrote;
        });
        return won ? { status: "answered", questionId, value: verdict.value } : explain(questionId);
      }
      const { raw, fieldErrors, formErrors, refusals, moreChecksAfterThese } = verdict;
      const refused = { fieldErrors, formErrors, refusals, moreChecksAfterThese };
      // Nothing answered at all (an empty "Send", an Enter too early) is a slip, not an attempt: refused, never counted.
      if (isEmptyAnswer(spec, "form" in answer ? rawFromFormAnswer(spec, answer.form) : rawFromTextAnswers(spec, answer.text))) {
        const attempts = { allowed: question.attemptsAllowed, refused: question.attemptsUsed };
        return { status: "refused", questionId, attempt: attemptLabel(attempts), attemptsLeft: attempts.allowed - attempts.refused, counted: false, raw, ...refused };
      }
      const outcome = await commit(async (tx) => {
        const counted = await countRefusedAttempt(tx, {
          questionId,
          seenAttemptsUsed: question.attemptsUsed,
          by,
          events: [
            {
              taskId: question.taskId,
              workflowInstanceId: question.workflowInstanceId,
              kind: "answer-refused",
              data: { questionId, by, attempt: question.attemptsUsed + 1, of: question.attemptsAllowed },
              at,
            },
          ],
        });
        if (!counted) return { value: undefined, changes: [] };
        const userIds = partiesOf(question);
        if (counted.attemptsUsed < counted.attemptsAllowed) {
          return { value: counted, changes: [{ kind: "question-refused", taskId: question.taskId, questionId, userIds }] };
        }
        await close(question, "refused", by, tx, at);
        return { value: counted, changes: closeChanges(question) };
      });
      if (!outcome) return explain(questionId);
      if (outcome.attemptsUsed >= outcome.attemptsAllowed) return { status: "closed", questionId, reason: "refused", raw, ...refused };
      const attempts = { allowed: outcome.attemptsAllowed, refused: outcome.attemptsUsed };
      return { status: "refused", questionId, attempt: attemptLabel(attempts), attemptsLeft: attempts.allowed - attempts.refused, counted: true, raw, ...refused };
    },

    async closeWithNothing({ questionId, reason, by }) {
      const loaded = await load(questionId, by);
      if (!("spec" in loaded)) return loaded;
      const question = loaded;
      const at = now();
      const closed = unavailable(question, at) ?? claimedByAnother(question, by);
      if (closed) return closed;
      const done = await commit(async (tx) => {
        const wrote = await close(question, reason, by ?? null, tx, at);
        return { value: wrote, changes: wrote ? closeChanges(question) : [] };
      }, { oneStatement: true });
      return done ? { status: "closed", questionId, reason } : explain(questionId);
    },

    async decline({ questionId, by, note }) {
      const given = note?.trim() ?? "";
      if (given.length > DECLINE_NOTE_MAX_LENGTH) {
        return { status: "invalid_input", questionId, path: "note", message: `The note is ${given.length.toLocaleString("en")} characters long: keep it to ${DECLINE_NOTE_MAX_LENGTH.toLocaleString("en")}.` };
      }
      const kept = given === "" ? null : given;
      const loaded = await load(questionId, by);
      if (!("spec" in loaded)) return loaded;
      const question = loaded;
      if (question.reason === "declined" && question.declinedBy === by) return { status: "closed", questionId, reason: "declined", note: question.declineNote };
      const at = now();
      const closed = unavailable(question, at) ?? claimedByAnother(question, by);
      if (closed) return closed;
      const done = await commit(async (tx) => {
        const wrote = await close(question, "declined", by, tx, at, kept);
        return { value: wrote, changes: wrote ? closeChanges(question) : [] };
      }, { oneStatement: true });
      return done ? { status: "closed", questionId, reason: "declined", note: kept } : explain(questionId);
    },

    questionsFor: (userId, page) => listAnswerableQuestions(db, userId, page),

    async questionFor(questionId, userId) {
      const question = isUuid(questionId) ? await findQuestion(db, questionId) : undefined;
      if (!question) return null;
      return partiesOf(question).includes(userId) || question.answeredBy === userId || question.declinedBy === userId ? question : null;
    },
  };
}

/** The zod schema of a JSON Schema that came with an ask; one Parley cannot ask is the asker's mistake, told at the ask. */
function givenSchema(json: Record<string, unknown>): z.ZodObject {
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
  deps: DeskDependencies,
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
