import { defineApp, defineStart, describePlatformTasks, findPlatformTask, inputFacts, startPlatformTask } from "parley/workflows";
import { DeployApproval } from "./deploy-approval";
import { createReleaseCheckerModel } from "./release-checker-script";
import { deployInput } from "./start-input";

/**
 * Deployment approval, registered like any adopter's app: an agent asks the approver about the
 * rollback in a loop, then the flow asks for the verdict as a questionnaire. It keeps its tasks in
 * the platform's own table, so it has no tables or migrations of its own.
 */
export const deployApproval = defineApp({
  name: "deploy-approval",
  workflows: [
    {
      workflow: DeployApproval,
      label: "Deployment approval",
      description: "The release checker asks the approver about the rollback, then the approver approves, postpones or rejects.",
      describe: (db, taskIds) => describePlatformTasks(db, taskIds, DeployApproval, (input) => input.change),
      async context(db, taskId) {
        const task = await findPlatformTask(db, taskId, DeployApproval);
        if (!task) return undefined;
        return {
          title: task.title,
          facts: inputFacts(task.input, { service: "Service", version: "Version", environment: "Environment", change: "Change", rollbackTested: "Rollback tested" }),
        };
      },
      start: defineStart({
        input: deployInput,
        submitLabel: "Ask for approval",
        async run({ db, runtime, by }, input) {
          const task = await startPlatformTask(db, runtime, DeployApproval, { title: `Deploy ${input.service} ${input.version} to ${input.environment}`, input, by });
          return { taskId: task.id };
        },
      }),
      scripted: { ReleaseChecker: createReleaseCheckerModel },
    },
  ],
  async seedDemo({ db, runtime, people }) {
    const omar = people.get("omar@parley.test");
    const lee = people.get("lee@parley.test");
    if (!lee) return undefined;
    await startPlatformTask(db, runtime, DeployApproval, {
      title: "Deploy billing-api 2.14.0 to production",
      input: { service: "billing-api", version: "2.14.0", environment: "production", change: "Invoices get a tax line per region.", rollbackTested: false, approverId: lee.id },
      by: omar?.id ?? null,
    });
    return "asked Lee Okafor to approve a demo deployment.";
  },
});
