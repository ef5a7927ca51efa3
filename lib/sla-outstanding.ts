import type { Db } from "@/db/client";
import { type EscalationStepRow, listEscalationSteps } from "@/db/queries/runtime-escalations";
import { countOpenSlotsByAge, listOpenSlots, listSlaFilterChoices, type OpenSlotFilters, type OpenSlotRow } from "@/db/queries/sla";
import { OPEN_AGE_BUCKETS } from "@/lib/sla-numbers";

export type { OpenSlotFilters, OpenSlotRow } from "@/db/queries/sla";

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

/** The SLA page's outstanding work: a page of open waits, the choices its filters offer, open work by age. */
export interface OutstandingWork {
  /** Open waits matching the filters, soonest due first: up to `limit`, after the wait `after`. */
  page: OutstandingSlot[];
  choices: { workflows: string[]; agents: string[] };
  /** Open waits by age, in OPEN_AGE_BUCKETS' bars. */
  ages: number[];
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

/** Reads the open waits the SLA page lists (filtered, a page at a time) with their escalation chains, its filters' choices and the age chart. */
export async function readOutstandingWork(db: Db, filters: OpenSlotFilters, now: Date, page: { limit: number; after?: string }): Promise<OutstandingWork> {
  const [open, choices, ages] = await Promise.all([
    listOpenSlots(db, filters, now, page.limit, page.after),
    listSlaFilterChoices(db),
    countOpenSlotsByAge(db, OPEN_AGE_BUCKETS.bounds, now),
  ]);
  const steps = await listEscalationSteps(db, open.map((slot) => slot.id));
  return { page: open.map((slot) => ({ ...slot, escalation: escalationView(steps.get(slot.id) ?? [], slot) })), choices, ages };
}
