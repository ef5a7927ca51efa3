import type { Db } from "@/db/client";
import { type EscalationStepRow, listEscalationSteps } from "@/db/queries/runtime-escalations";
import { type AssigneeChoice, findAssigneeChoices, listOpenSlots, listSlaFilterChoices, type OpenSlotFilters, type OpenSlotRow } from "@/db/queries/sla";

export type { AssigneeChoice, OpenSlotFilters, OpenSlotRow } from "@/db/queries/sla";

/**
 * Whom the assignee filter's words (an email, part of a name, or an id from a link) name: `chosen`
 * when exactly one person (or an exact email) matches; otherwise the few who match, to pick from.
 */
export async function resolveAssigneeFilter(db: Db, words: string | undefined): Promise<{ chosen: AssigneeChoice | null; matches: AssigneeChoice[] }> {
  if (!words?.trim()) return { chosen: null, matches: [] };
  const matches = await findAssigneeChoices(db, words);
  const exact = matches.find((person) => person.id === words.trim() || person.email.toLowerCase() === words.trim().toLowerCase());
  const chosen = exact ?? (matches.length === 1 ? matches[0]! : null);
  return { chosen, matches: chosen ? [chosen] : matches };
}

/** One step of a wait's escalation chain, as the SLA page words it. */
export interface EscalationStepView {
  step: number;
  /** Its moment, as a percentage of the wait's SLA. */
  percent: number;
  /** "remind", or "+finance" for a group it adds. */
  label: string;
  dueAt: Date;
  firedAt: Date | null;
}

/** A wait's escalation chain: the steps fired so far, in order, and the next one to fire (null when none is left). */
export interface EscalationView {
  fired: EscalationStepView[];
  next: EscalationStepView | null;
}

/** An open wait with its escalation chain (null when it has none). */
export type OutstandingSlot = OpenSlotRow & { escalation: EscalationView | null };

/**
 * The SLA page's outstanding work: a page of open waits and the choices its filters offer (open work
 * by age, which reads every open wait, is kept with the history: lib/sla-history.ts' `openWorkByAgeFor`).
 */
export interface OutstandingWork {
  /** Open waits matching the filters, soonest due first: up to `limit`, after the wait `after`. */
  page: OutstandingSlot[];
  choices: { workflows: string[]; agents: string[] };
}

/** A wait's chain as the SLA page shows it, from its stored steps. */
export function escalationView(steps: readonly EscalationStepRow[], slot: Pick<OpenSlotRow, "openedAt" | "dueAt">): EscalationView | null {
  if (steps.length === 0) return null;
  const span = slot.dueAt ? slot.dueAt.getTime() - slot.openedAt.getTime() : 0;
  const views = steps.map(
    (step): EscalationStepView => ({
      step: step.step,
      percent: span > 0 ? Math.round((100 * (step.dueAt.getTime() - slot.openedAt.getTime())) / span) : 0,
      label: step.action.kind === "add-group" ? `+${step.action.group}` : "remind",
      dueAt: step.dueAt,
      firedAt: step.firedAt,
    }),
  );
  return { fired: views.filter((view) => view.firedAt !== null), next: views.find((view) => view.firedAt === null) ?? null };
}

/** Reads the open waits the SLA page lists (filtered, a page at a time) with their escalation chains, and its filters' choices. */
export async function readOutstandingWork(db: Db, filters: OpenSlotFilters, now: Date, page: { limit: number; after?: string }): Promise<OutstandingWork> {
  const [open, choices] = await Promise.all([listOpenSlots(db, filters, now, page.limit, page.after), listSlaFilterChoices(db)]);
  const steps = await listEscalationSteps(db, open.map((slot) => slot.id));
  return { page: open.map((slot) => ({ ...slot, escalation: escalationView(steps.get(slot.id) ?? [], slot) })), choices };
}
