import { z } from "zod";
import { personChoice, type StartFormContext } from "parley/workflows";

/** The environments a release goes to. */
export const ENVIRONMENTS = ["staging", "production"] as const;

/** What an operator fills in to ask for a deployment's approval: the deploy approval's start input. */
export function deployInput({ people }: StartFormContext) {
  return z
    .object({
      service: z
        .string({ error: "Name the service to deploy, like billing-api." })
        .trim()
        .regex(/^[a-z][a-z0-9-]{1,62}$/, "Name the service as it is deployed: lower-case letters, digits and dashes, like billing-api.")
        .describe("Which service?"),
      version: z
        .string({ error: "Say which version to deploy, like 2.14.0." })
        .trim()
        .regex(/^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "Write the version as major.minor.patch, like 2.14.0.")
        .describe("Which version?"),
      environment: z
        .enum(ENVIRONMENTS, { error: "Choose staging or production." })
        .meta({ title: "Environment" })
        .describe("Where to?"),
      change: z.string({ error: "Say in a line or two what changes." }).trim().min(1, "Say in a line or two what changes.").max(2000, "Keep the change under 2,000 characters.").describe("What changes?"),
      rollbackTested: z.boolean().default(false).describe("Was the rollback tested?"),
      approverId: personChoice(people, "Who approves it?", "Choose who approves the deployment."),
    })
    .meta({ title: "Ask for a deployment's approval" });
}

export type DeployInput = z.output<ReturnType<typeof deployInput>>;

/**
 * Whether a day (YYYY-MM-DD) is over everywhere: before yesterday in UTC, so that "today" is a day
 * that has not passed for whoever answers, in any time zone.
 */
function isPast(day: string): boolean {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  return day < yesterday;
}

/** The approver's verdict, asked as a questionnaire once the release checker is satisfied. */
export const Approval = z
  .object({
    decision: z
      .union([
        z.literal("approve").meta({ title: "Approve", description: "Deploy in the window below" }),
        z.literal("postpone").meta({ title: "Postpone", description: "Not now; ask again later" }),
        z.literal("reject").meta({ title: "Reject", description: "Do not deploy this version" }),
      ])
      .describe("Do you approve this deployment?"),
    window: z.iso
      .date("Pick the day of the deployment window.")
      .refine((day) => !isPast(day), "That day has passed: pick today or a later day.")
      .optional()
      .describe("On which day may it go out? (empty: as soon as possible)"),
    notify: z.array(z.string().trim().min(1)).default([]).describe("Which teams should hear of it? (comma-separated)"),
    notes: z.string().trim().max(2000, "Keep the notes under 2,000 characters.").optional().describe("Anything the deployer should know?"),
  })
  .meta({ title: "Deployment approval" });

export type ApprovalAnswer = z.output<typeof Approval>;
