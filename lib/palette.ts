import type { Db } from "@/db/client";
import type { User } from "@/db/schema";
import { hasAnyRole, RUN_WATCHERS } from "@/lib/auth/roles";
import { INBOX_VIEW_LABELS, INBOX_VIEWS, loadInbox } from "@/lib/inbox";
import type { Registry } from "@/lib/registry";
import { runStateWords } from "@/lib/run-view";
import { loadRuns, startableWorkflows } from "@/lib/runs";
import { LISTED_TEXT_LENGTH, shorten } from "@/lib/short-text";

/**
 * The command palette (Ctrl/⌘-K): every page the person may open, found by its name, and the open
 * questions and runs that have the words they typed, each a link to go to.
 */
export interface PaletteItem {
  href: string;
  label: string;
  /** A second line: where a page leads, who asks a question, a run's workflow and state. */
  detail?: string;
}

/** The pages of Parley a person with `roles` may open, in the order the palette lists them with nothing typed. */
export function placesFor(user: Pick<User, "roles">, registry: Registry): PaletteItem[] {
  const places: PaletteItem[] = [];
  if (hasAnyRole(user.roles, ["assignee"])) {
    for (const view of INBOX_VIEWS) places.push({ href: `/inbox?view=${view}`, label: `Inbox: ${INBOX_VIEW_LABELS[view]}` });
  }
  if (hasAnyRole(user.roles, RUN_WATCHERS)) {
    places.push({ href: "/runs", label: "Runs", detail: "Every run, by workflow and state" });
    for (const entry of startableWorkflows(registry, user)) {
      places.push({ href: `/runs?start=${encodeURIComponent(entry.workflow.name)}`, label: `Start: ${entry.label}`, detail: entry.description });
    }
  }
  if (hasAnyRole(user.roles, ["admin"])) {
    places.push(
      { href: "/admin/sla", label: "SLA clocks", detail: "Open waits, breaches, reassign and remind" },
      { href: "/admin/people", label: "People", detail: "Add, change roles and groups, deactivate" },
      { href: "/admin/groups", label: "Groups", detail: "The teams questions are put to" },
      { href: "/admin/api-keys", label: "API keys", detail: "The keys agents ask with" },
      { href: "/admin/audit", label: "Audit log", detail: "Who did what and when; CSV" },
      { href: "/admin/deliveries", label: "Failed deliveries", detail: "Emails and webhooks that did not get through" },
      { href: "/admin", label: "Admin", detail: "Everything an admin looks after, and who is away" },
    );
  }
  places.push(
    { href: "/notifications", label: "Notifications" },
    { href: "/profile", label: "Profile", detail: "Your name, away and delegate, tokens for the terminal" },
  );
  return places;
}

/** How many questions, and how many runs, the palette shows for what was typed. */
export const PALETTE_FOUND = 8;
/** How many of the newest runs the palette looks through for the words typed. */
export const PALETTE_RUNS_SEARCHED = 200;

/** The words of `text`, lower-cased, for a match of all of them. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * What has the words typed into the palette: the person's open questions that have them, snoozed ones
 * after the rest (searched as the inbox searches every view; with no words, the ones due soonest), and — for operators and admins —
 * the runs among the newest {@link PALETTE_RUNS_SEARCHED} whose title, summary or workflow has them all.
 */
export async function findForPalette(
  db: Db,
  registry: Registry,
  user: Pick<User, "id" | "roles">,
  text: string,
  now: Date,
): Promise<{ questions: PaletteItem[]; runs: PaletteItem[] }> {
  const words = wordsOf(text);
  const [inbox, runs] = await Promise.all([
    hasAnyRole(user.roles, ["assignee"]) ? loadInbox(db, user.id, "assigned", now, { pageSize: PALETTE_FOUND, registry, search: { text } }) : null,
    hasAnyRole(user.roles, RUN_WATCHERS) ? loadRuns(db, registry, { pageSize: PALETTE_RUNS_SEARCHED }) : null,
  ]);
  // Open ones first, then the ones they snoozed (a search of everything finds those too).
  const questions: PaletteItem[] = [
    ...(inbox?.rows ?? []).map((row) => ({ id: row.id, headline: row.headline, asker: row.asker, subject: row.subject, view: row.view })),
    ...(inbox?.snoozed ?? []).map((row) => ({ id: row.id, headline: row.headline, asker: row.asker, subject: row.subject, view: "snoozed" as const })),
  ]
    .slice(0, PALETTE_FOUND)
    .map((row) => ({
      href: `/questions/${row.id}`,
      label: shorten(row.headline, LISTED_TEXT_LENGTH),
      detail: [row.asker.label, row.subject?.title, INBOX_VIEW_LABELS[row.view]].filter(Boolean).join(" · "),
    }));
  const runRows = (runs?.rows ?? [])
    .filter((run) => {
      const haystack = [run.subject?.title, run.subject?.summary, run.workflowLabel].filter(Boolean).join(" ").toLowerCase();
      return words.every((word) => haystack.includes(word));
    })
    .slice(0, PALETTE_FOUND);
  return {
    questions,
    runs: runRows.map((run) => ({
      href: `/tasks/${run.taskId}`,
      label: shorten(run.subject?.title ?? run.workflowLabel, LISTED_TEXT_LENGTH),
      detail: `${run.workflowLabel} · ${runStateWords(run).label}${run.waitingOn ? ` · waiting on ${run.waitingOn}` : ""}`,
    })),
  };
}
