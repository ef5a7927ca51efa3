import type { Db } from "@/db/client";
import { findGroupsForRouting, type RoutedGroup } from "@/db/queries/group-routing";
import type { NewEscalationStep } from "@/db/queries/runtime-escalations";
import { AppError } from "@/lib/errors";
import type { Escalation, EscalationAction } from "./types";

/** The same error as definitionError (definition-errors.ts imports this module, so it is not imported back). */
const definitionError = (what: string) => new AppError("definition_error", what);

/** A step checked: its fraction of the SLA (0 < f < 1) and what it does, its group still by name. */
export interface PlannedEscalationStep {
  fraction: number;
  action: { kind: "remind" } | { kind: "add-group"; group: string };
}

/** The percentage `at` names, or undefined when it is not "<number>%" with 0 < number < 100. */
function percentOf(at: unknown): number | undefined {
  if (typeof at !== "string") return undefined;
  const match = /^\s*([^%\s]+)\s*%\s*$/.exec(at);
  const percent = match ? Number(match[1]) : Number.NaN;
  return percent > 0 && percent < 100 ? percent : undefined;
}

/**
 * Why a chain is wrong, or undefined when it is fine — what can be known without the database: each
 * step's `at` is a percentage strictly between 0 and 100, and it does one thing. `where` names the
 * declaration for the message (e.g. "its Waiting state's Answered wait").
 */
export function escalationProblem(chain: unknown, where: string): string | undefined {
  if (!Array.isArray(chain)) return `${where} declares \`escalate\` that is not a list of steps`;
  for (const [index, step] of chain.entries()) {
    const at = (step as { at?: unknown } | null)?.at;
    if (percentOf(at) === undefined) {
      return `${where} escalates at ${JSON.stringify(at)} (step ${index + 1}); write a percentage of the SLA strictly between 0 and 100, like "50%"`;
    }
    const { remind, addGroup } = step as { remind?: unknown; addGroup?: unknown };
    const adds = typeof addGroup === "string" && addGroup.trim() !== "";
    if ((remind === true) === adds) {
      return `${where}'s escalation step ${index + 1} must do exactly one thing: \`remind: true\` or \`addGroup: "<group>"\``;
    }
  }
  return undefined;
}

/**
 * Checks a chain (a definition error naming `where` when it is wrong, or when there is no SLA for it
 * to be a fraction of) and orders its steps by their moment, steps at the same moment in the order
 * written.
 */
export function planEscalation(chain: Escalation | undefined, hasDeadline: boolean, where: string): PlannedEscalationStep[] {
  if (!chain || chain.length === 0) return [];
  const problem = escalationProblem(chain, where);
  if (problem) throw definitionError(problem);
  if (!hasDeadline) throw definitionError(`${where} declares an escalation chain without an SLA; give it \`within\` (or \`dueAt\`), whose fractions the steps are`);
  return chain
    .map((step, index) => ({ index, fraction: percentOf(step.at)! / 100, action: step.remind ? ({ kind: "remind" } as const) : ({ kind: "add-group", group: step.addGroup! } as const) }))
    .sort((a, b) => a.fraction - b.fraction || a.index - b.index)
    .map(({ fraction, action }) => ({ fraction, action }));
}

/** The group names a chain's `add-group` steps name. */
export function escalationGroupNames(planned: readonly PlannedEscalationStep[]): string[] {
  return planned.flatMap((step) => (step.action.kind === "add-group" ? [step.action.group] : []));
}

/**
 * The steps to store with a slot opened at `openedAt` and due at `dueAt`: each due at
 * `openedAt + fraction × (dueAt − openedAt)`, numbered from 1 in firing order, groups resolved to
 * their ids among `groups` (as {@link findGroupsForRouting} reads them). A group that does not exist
 * is a definition error, as it is for `candidates`.
 */
export function stepsOfEscalation(
  planned: readonly PlannedEscalationStep[],
  openedAt: Date,
  dueAt: Date,
  groups: readonly Pick<RoutedGroup, "id" | "name">[],
  where: string,
): NewEscalationStep[] {
  const span = dueAt.getTime() - openedAt.getTime();
  return planned.map((step, index) => {
    let action: EscalationAction = { kind: "remind" };
    if (step.action.kind === "add-group") {
      const name = step.action.group;
      const found = groups.find((each) => each.name === name.trim().toLowerCase());
      if (!found) throw definitionError(`${where} escalates to the group “${name}”, and there is no such group`);
      action = { kind: "add-group", groupId: found.id, group: found.name };
    }
    return { step: index + 1, dueAt: new Date(openedAt.getTime() + Math.round(step.fraction * span)), action };
  });
}

/** {@link stepsOfEscalation}, reading the groups the chain names. */
export async function escalationSteps(db: Db, planned: readonly PlannedEscalationStep[], openedAt: Date, dueAt: Date, where: string): Promise<NewEscalationStep[]> {
  if (planned.length === 0) return [];
  const groups = await findGroupsForRouting(db, escalationGroupNames(planned));
  return stepsOfEscalation(planned, openedAt, dueAt, groups, where);
}
