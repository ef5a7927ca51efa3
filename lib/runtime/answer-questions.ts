import type { z } from "zod";
import type { Db } from "@/db/client";
import { closeQuestionWithNothing, countRefusedAttempt, depositAnswer, findQuestion, listAnswerableQuestions, partiesOf, type QuestionRow } from "@/db/queries/runtime-questions";
import { DECLINE_NOTE_MAX_LENGTH, type NothingReason } from "@/db/schema";
import { isUuid } from "@/lib/ids";
import { attemptLabel, isEmptyAnswer, rawFromFormAnswer, rawFromTextAnswers, specFromSchema, validateFormAnswer, validateTextAnswers } from "@/lib/questions";
import { agentAskSchema } from "./agent-question";
import { givenSchema } from "./ask-person";
import { questionnaireOf } from "./person";
import type { QuestionDesk, QuestionUnavailable } from "./question-desk";
import { claimedByAnother, closeChanges, isAgentAsk, payloadOf, unavailable } from "./question-rules";
import type { RuntimeContext } from "./runtime-context";
import { inSpan } from "./tracing";
import type { AnyWorkflow } from "./types";

export type { CloseQuestionResult, DeclineQuestionResult, QuestionDesk, QuestionUnavailable, SubmitAnswerResult, SubmittedAnswer } from "./question-desk";

/** What the desk needs from its runtime. */
type DeskDependencies = Pick<RuntimeContext, "db" | "now" | "commit" | "workflowNamed">;

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
