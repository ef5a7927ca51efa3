import { agentAnswered, answerOf, defineAgent, defineWorkflow, person, tasks, turn } from "parley/workflows";
import { Approval, type DeployInput, deployInput } from "./start-input";

/** How long the approver has to answer the release checker, and then to approve. */
export const CHECK_WITHIN = { hours: 4 } as const;
export const APPROVE_WITHIN = { hours: 8 } as const;

/** The release as the checker is told it, field by field. */
export function releaseBrief(input: DeployInput): string {
  return [
    "Check this release.",
    `Service: ${input.service}`,
    `Version: ${input.version}`,
    `Environment: ${input.environment}`,
    `Rollback tested: ${input.rollbackTested ? "yes" : "no"}`,
    `Change: ${input.change}`,
  ].join("\n");
}

/** The agent: checks a release is safe to deploy, asking the approver for the rollback plan when it must. */
export const ReleaseChecker = defineAgent({
  name: "ReleaseChecker",
  purpose: "Check a release is safe to deploy.",
  prompt:
    "You check releases before they are deployed. When a production release's rollback was not tested, ask the approver " +
    "with the ask tool how it would be rolled back, until the plan names its steps. End with one line starting `Ready:`.",
  memory: "persistent",
  loop: () => DeployApproval,
});

/**
 * The second example: the release checker (an agent) asks the approver free-text questions in a
 * loop until it is satisfied, then the flow asks the approver a questionnaire — approve, postpone or
 * reject, a window, who to tell. It tracks the platform's own task table: no tables of its own.
 */
export const DeployApproval = defineWorkflow({
  name: "DeployApproval",
  tracks: tasks,
  /** The start form's schema: `run.item.input` is what it gave. */
  input: deployInput,
  agents: { ReleaseChecker },
  initial: "Checking",
  events: {
    /** The approver's answer to one of the checker's questions (`{ text, questionId }`). */
    Answered: agentAnswered(),
    Approved: answerOf(Approval),
  },
  states: {
    Checking: {
      async enter(run) {
        const reply = await ReleaseChecker.ask(run.item, [turn.user(releaseBrief(run.item.input))]);
        return reply.parked ? run.goto("Waiting") : run.goto("Approving");
      },
    },
    Waiting: {
      subscribe: {
        Answered: {
          as: "Approver",
          assignee: (run) => run.item.input.approverId,
          candidates: (run) => [run.item.input.approverId],
          within: CHECK_WITHIN,
          unfinished: (run) => run.goto("TimedOut"),
        },
      },
      on: {
        async Answered(run, { text, questionId }) {
          const reply = await ReleaseChecker.answer(run.item, text, questionId ? { questionId } : {});
          return reply.parked ? run.goto("Waiting") : run.goto("Approving");
        },
      },
    },
    Approving: {
      async enter(run) {
        const { input } = run.item;
        // Parks here; the verdict (or nothing) arrives in `on.Approved`.
        await person.ask(run, "Approved", { to: input.approverId, title: `Approve ${input.service} ${input.version} to ${input.environment}?`, within: APPROVE_WITHIN, attempts: 3 });
        return undefined;
      },
      on: {
        Approved(run, answer) {
          if (!answer.ok) return run.goto("NotApproved");
          if (answer.value.decision === "approve") return run.goto("Approved");
          return run.goto(answer.value.decision === "postpone" ? "Postponed" : "Rejected");
        },
      },
    },
    Approved: { terminal: "success" },
    Postponed: { terminal: "success" },
    Rejected: { terminal: "success" },
    NotApproved: { terminal: "error", message: "nobody approved or refused the deployment" },
    TimedOut: { terminal: "error", message: "the approver did not answer the release checker in time" },
  },
});
