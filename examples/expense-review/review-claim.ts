import { eq } from "drizzle-orm";
import { type AgentReply, agentAnswered, answerOf, type Db, defineAgent, defineWorkflow, person, turn } from "parley/workflows";
import { claimBrief, parseDecision } from "./claim-brief";
import { REIMBURSE_WITHIN, Reimbursement } from "./reimbursement";
import { closeQuestion, listAnswererIds, listOpenQuestions, writeQuestions } from "./review-questions";
import { claims, type ReviewTask, reviewQuestions, reviewTasks } from "./schema";

/** The demo agent: reviews an expense claim, asking the filer about what the record can't explain. */
export const Auditor = defineAgent({
  name: "Auditor",
  purpose: "Review a claim.",
  prompt:
    "You review expense claims. Approve or reject each with a reason. When the record cannot explain a charge, " +
    "ask the filer with the ask tool rather than guess. End with two lines: `Decision: approved|rejected` and `Reason: …`.",
  memory: "persistent",
  principal: { email: "auditor@parley.test" },
  loop: () => ReviewClaim,
});

/** How long the filer has to answer before the review fails. */
export const ANSWER_WITHIN = { days: 2 } as const;

async function recordDecision(db: Db, task: ReviewTask, reply: AgentReply): Promise<"approved" | "rejected" | undefined> {
  const decision = parseDecision(reply.text);
  if (!decision) return undefined;
  await db.update(reviewTasks).set({ decision: decision.decision, decisionReason: decision.reason }).where(eq(reviewTasks.id, task.id));
  return decision.decision;
}

/** Where the review goes once the Auditor has decided: an approval asks how to pay back; no decision fails. */
function stateAfter(decision: Awaited<ReturnType<typeof recordDecision>>) {
  if (decision === "approved") return "Reimbursing" as const;
  return decision ? ("Completed" as const) : ("Failed" as const);
}

/**
 * The demo workflow: the Auditor reviews a claim, parking in `Waiting` whenever it asks the filer;
 * an approved claim then asks the filer the Reimbursement questionnaire.
 */
export const ReviewClaim = defineWorkflow({
  name: "ReviewClaim",
  tracks: reviewTasks,
  agents: { Auditor },
  initial: "Running",
  events: {
    /** The filer's answer to one of the Auditor's questions (`{ text, questionId }`). */
    Answered: agentAnswered(),
    /** The filer's answer to the Reimbursement questionnaire, or nothing with its reason. */
    Reimbursed: answerOf(Reimbursement),
  },
  states: {
    Running: {
      async enter(run) {
        const [claim] = await run.db.select().from(claims).where(eq(claims.id, run.item.claimId));
        if (!claim) return run.goto("Failed");
        const reply = await Auditor.ask(run.item, [turn.user(claimBrief(claim))]);
        if (reply.parked) {
          await writeQuestions(run.db, run.taskId, reply.questions, run.now);
          return run.goto("Waiting");
        }
        return run.goto(stateAfter(await recordDecision(run.db, run.item, reply)));
      },
    },
    Waiting: {
      subscribe: {
        Answered: {
          as: "Filer",
          assignee: (run) => run.item.assigneeId,
          candidates: (run) => listAnswererIds(run.db),
          within: ANSWER_WITHIN,
          async unfinished(run) {
            await run.db.update(reviewQuestions).set({ status: "expired" }).where(eq(reviewQuestions.taskId, run.taskId));
            return run.goto("Failed");
          },
        },
      },
      on: {
        async Answered(run, { text, questionId }) {
          const askId = questionId ?? (await listOpenQuestions(run.db, run.taskId))[0]?.askId;
          const reply = await Auditor.answer(run.item, text, askId ? { questionId: askId } : {});
          if (askId) await closeQuestion(run.db, askId, text, run.now);
          if (reply.parked) {
            await writeQuestions(run.db, run.taskId, reply.questions, run.now);
            return run.goto("Waiting");
          }
          return run.goto(stateAfter(await recordDecision(run.db, run.item, reply)));
        },
      },
    },
    Reimbursing: {
      async enter(run) {
        const filer = run.item.assigneeId ?? run.item.createdBy;
        if (!filer) return run.goto("NotReimbursed");
        // Parks here; the answer (or nothing) arrives in `on.Reimbursed`.
        await person.ask(run, "Reimbursed", { to: filer, within: REIMBURSE_WITHIN, attempts: 3 });
        return undefined;
      },
      on: {
        async Reimbursed(run, answer) {
          if (!answer.ok) {
            await run.db.update(reviewTasks).set({ reimbursementNothing: answer.reason }).where(eq(reviewTasks.id, run.taskId));
            return run.goto("NotReimbursed");
          }
          await run.db.update(reviewTasks).set({ reimbursement: answer.value }).where(eq(reviewTasks.id, run.taskId));
          return run.goto("Completed");
        },
      },
    },
    Completed: { terminal: "success" },
    NotReimbursed: { terminal: "error", message: "the claim was approved, but the filer gave no reimbursement details" },
    Failed: { terminal: "error", message: "the review could not be completed" },
  },
});
