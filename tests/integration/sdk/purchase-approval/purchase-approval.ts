import { eq } from "drizzle-orm";
import { type AgentReply, agentAnswered, answerOf, type Db, defineAgent, defineWorkflow, group, person, turn } from "parley/workflows";
import { z } from "zod";
import { type PurchaseRequest, purchaseRequests } from "./schema";

/** Finance's verdict on a purchase, asked as a questionnaire. */
export const Decision = z
  .object({
    approve: z.boolean().describe("Do you approve this purchase?"),
    note: z.string().trim().max(500, "Keep the note under 500 characters.").optional().describe("A note for the requester?"),
  })
  .meta({ title: "Purchase approval" });

/** How long the requester has to say why, and finance to decide. */
export const DECIDE_WITHIN = { days: 1 } as const;

/** The agent: makes sure a purchase says why it is needed, asking its requester when it does not. */
export const Buyer = defineAgent({
  name: "Buyer",
  purpose: "Check a purchase request says why it is needed.",
  prompt: "You check purchase requests. Over 500.00, ask the requester why with the ask tool. End with one line starting `Justified:`.",
  memory: "persistent",
  loop: () => PurchaseApproval,
});

function brief(request: PurchaseRequest): string {
  return ["Check this purchase request.", `Item: ${request.item}`, `Cents: ${request.amountCents}`].join("\n");
}

/** Keeps the buyer's justification and goes on to finance, or parks for the requester's answer. */
async function afterBuyer(db: Db, request: PurchaseRequest, reply: AgentReply) {
  if (reply.parked) return "Waiting" as const;
  const justification = /^Justified:\s*(.+)$/im.exec(reply.text)?.[1]?.trim() ?? null;
  await db.update(purchaseRequests).set({ justification }).where(eq(purchaseRequests.id, request.id));
  return "Deciding" as const;
}

/** A purchase approval: the buyer asks the requester why (when it must), then anyone in finance decides within a day. */
export const PurchaseApproval = defineWorkflow({
  name: "PurchaseApproval",
  tracks: purchaseRequests,
  agents: { Buyer },
  initial: "Checking",
  events: {
    Answered: agentAnswered(),
    Decided: answerOf(Decision),
  },
  states: {
    Checking: {
      async enter(run) {
        return run.goto(await afterBuyer(run.db, run.item, await Buyer.ask(run.item, [turn.user(brief(run.item))])));
      },
    },
    Waiting: {
      subscribe: {
        Answered: {
          as: "Requester",
          assignee: (run) => run.item.requestedBy,
          candidates: (run) => [run.item.requestedBy],
          within: DECIDE_WITHIN,
          unfinished: (run) => run.goto("Unjustified"),
        },
      },
      on: {
        async Answered(run, { text, questionId }) {
          return run.goto(await afterBuyer(run.db, run.item, await Buyer.answer(run.item, text, questionId ? { questionId } : {})));
        },
      },
    },
    Deciding: {
      async enter(run) {
        // Parks here; the verdict (or nothing) arrives in `on.Decided`. Finance is reminded halfway through the day.
        await person.ask(run, "Decided", { to: group("finance"), title: `Buy ${run.item.item}?`, within: DECIDE_WITHIN, escalate: [{ at: "50%", remind: true }] });
        return undefined;
      },
      on: {
        async Decided(run, answer) {
          if (!answer.ok) {
            await run.db.update(purchaseRequests).set({ undecided: answer.reason }).where(eq(purchaseRequests.id, run.taskId));
            return run.goto("Undecided");
          }
          const decision = answer.value.approve ? "approved" : "rejected";
          await run.db.update(purchaseRequests).set({ decision }).where(eq(purchaseRequests.id, run.taskId));
          return run.goto(answer.value.approve ? "Approved" : "Rejected");
        },
      },
    },
    Approved: { terminal: "success" },
    Rejected: { terminal: "success" },
    Unjustified: { terminal: "error", message: "the requester did not say why in time" },
    Undecided: { terminal: "error", message: "nobody in finance decided in time" },
  },
});
