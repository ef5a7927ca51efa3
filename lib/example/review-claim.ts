import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { claims, type ReviewTask, reviewQuestions, reviewTasks } from "@/db/schema";
import { type AgentReply, defineWorkflow, turn } from "@/lib/runtime";
import { Auditor } from "./auditor";
import { claimBrief, parseDecision } from "./claim-brief";
import { closeQuestion, listAnswererIds, listOpenQuestions, writeQuestions } from "./review-questions";

/** How long the filer has to answer before the review fails. */
export const ANSWER_WITHIN = { days: 2 } as const;

async function recordDecision(db: Db, task: ReviewTask, reply: AgentReply): Promise<boolean> {
  const decision = parseDecision(reply.text);
  if (!decision) return false;
  await db.update(reviewTasks).set({ decision: decision.decision, decisionReason: decision.reason }).where(eq(reviewTasks.id, task.id));
  return true;
}

/** The demo workflow: the Auditor reviews a claim, parking in `Waiting` whenever it asks the filer. */
export const ReviewClaim = defineWorkflow({
  name: "ReviewClaim",
  tracks: reviewTasks,
  initial: "Running",
  events: {
    Answered: z.object({
      text: z.string().trim().min(1, "Please write an answer."),
      /** Which question this answers (the ask id); optional while only one is open. */
      questionId: z.string().uuid().optional(),
    }),
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
        return (await recordDecision(run.db, run.item, reply)) ? run.goto("Completed") : run.goto("Failed");
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
          return (await recordDecision(run.db, run.item, reply)) ? run.goto("Completed") : run.goto("Failed");
        },
      },
    },
    Completed: { terminal: "success" },
    Failed: { terminal: "error", message: "the review could not be completed" },
  },
});
